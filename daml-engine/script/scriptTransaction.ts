/**
 * A Daml Script submission as one engine update, and the engine's transaction as the tree a
 * script sees: shared by every `ScriptLedger` that runs the update engine (in memory, or the
 * reference's ledger core).
 */
import type { Binding, Expr, Update } from '../ast/Expr.js';
import type { Package } from '../ast/Package.js';
import type { QualifiedName, Type } from '../ast/Type.js';
import { lookupInterface } from '../decode/Packages.js';
import type { Transaction, TxNode } from '../update/Transaction.js';
import type { RecordValue, Value } from '../value/Value.js';
import { listItems } from '../value/Value.js';
import type { ScriptCommand, ScriptCommandResult, ScriptTreeEvent } from './ScriptLedger.js';

const UNIT_TYPE: Type = { kind: 'builtin', builtin: 'UNIT', args: [] };
const lit = (value: Value): Expr => ({ kind: 'lit', value });

/** What each value of the update's result list is: a created contract id, or an exercise result. */
export type ScriptResultKind = 'create' | 'exercise';

/**
 * One update running the commands in order (a `createAndExercise` is a create, then an exercise of
 * what it created); its result lists each command's results, described by `kinds`.
 */
export function scriptCommandsUpdate(
  getPackage: (id: string) => Package | undefined, commands: readonly ScriptCommand[],
): { update: Update; kinds: ScriptResultKind[] } {
  const bindings: Binding[] = [];
  const kinds: ScriptResultKind[] = [];
  const bind = (kind: ScriptResultKind, update: Update): Expr => {
    const name = `r${bindings.length}`;
    bindings.push({ name, type: UNIT_TYPE, bound: { kind: 'update', update } });
    kinds.push(kind);
    return { kind: 'var', name };
  };
  const exercise = (templateId: QualifiedName, cid: Expr, choice: string, argument: Value): Update =>
    lookupInterface(getPackage, templateId)
      ? { kind: 'exerciseInterface', iface: templateId, choice, cid, arg: lit(argument), guard: undefined }
      : { kind: 'exercise', template: templateId, choice, cid, arg: lit(argument) };
  const out: Expr[] = [];
  for (const c of commands) {
    switch (c.kind) {
      case 'create': out.push(bind('create', { kind: 'create', template: c.templateId, expr: lit(c.argument) })); break;
      case 'exercise':
        out.push(bind('exercise', exercise(c.templateId, lit({ kind: 'contractId', value: c.contractId }), c.choice, c.argument)));
        break;
      case 'createAndExercise': {
        const cid = bind('create', { kind: 'create', template: c.templateId, expr: lit(c.argument) });
        out.push(cid, bind('exercise', exercise(c.templateId, cid, c.choice, c.choiceArgument)));
        break;
      }
    }
  }
  const results: Expr = { kind: 'cons', type: UNIT_TYPE, front: out, tail: { kind: 'nil', type: UNIT_TYPE } };
  return {
    update: { kind: 'block', bindings, body: { kind: 'update', update: { kind: 'pure', type: UNIT_TYPE, expr: out.length ? results : { kind: 'nil', type: UNIT_TYPE } } } },
    kinds,
  };
}

/** The command results of the update `scriptCommandsUpdate` built, from its result list. */
export function scriptCommandResults(result: Value, kinds: readonly ScriptResultKind[]): ScriptCommandResult[] {
  const values = result.kind === 'cons' || result.kind === 'nil' ? listItems(result) : [];
  return values.map((v, i) => kinds[i] === 'create' && v.kind === 'contractId' ? { kind: 'create', contractId: v.value } : { kind: 'exercise', result: v });
}

/** The Ledger API's transaction tree: creates and exercises; fetches and rolled-back nodes are not shown. */
export function scriptTreeOf(tx: Transaction): ScriptTreeEvent[] {
  const event = (node: TxNode): ScriptTreeEvent | undefined => {
    switch (node.kind) {
      case 'create': return { kind: 'created', contractId: node.contractId, templateId: node.templateId, argument: node.argument as RecordValue };
      case 'exercise':
        return {
          kind: 'exercised', contractId: node.contractId, templateId: node.templateId, interfaceId: node.interfaceId, choice: node.choice, argument: node.choiceArgument,
          children: node.children.map((id) => event(tx.nodes[id]!)).filter((e) => e !== undefined),
        };
      default: return undefined;
    }
  };
  return tx.roots.map((id) => event(tx.nodes[id]!)).filter((e) => e !== undefined);
}
