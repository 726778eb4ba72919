/**
 * A refused command, re-run: when the target refused a submission with an error of Daml
 * interpretation (a failed `ensure`, missing authorization, a Daml failure or exception, a
 * wrongly typed contract), the engine re-runs the commands on the input contracts as the target
 * reports them and must refuse too, with the same Canton error code (`judge.daml.error-code`).
 * Refusals of other kinds (validation, contention, unknown contracts) are not Daml's to judge.
 */
import { UpdateEngine, lookupInterface, lookupTemplate, type EvalError, type LedgerContract, type QualifiedName } from '../../../daml-engine/index.js';
import { isObject, type Json } from '../checks/support/expect.js';
import type { Difference } from './compareTransaction.js';
import { packageFetcher, type LedgerSource } from './ledgerSource.js';
import { inputContract, parseTemplateId, resolvedUpdate, type Resolved } from './reinterpret.js';

/** The codes of a Daml interpretation failure (CommandExecutionErrors.Interpreter and its kin) the engine can give. */
export const DAML_REFUSAL_CODES: ReadonlySet<string> = new Set([
  'TEMPLATE_PRECONDITION_VIOLATED', 'DAML_AUTHORIZATION_ERROR', 'DAML_FAILURE', 'UNHANDLED_EXCEPTION', 'INTERPRETATION_USER_ERROR',
  'WRONGLY_TYPED_CONTRACT', 'CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE',
]);

/** The Canton error code of an engine failure (`RejectionGenerators.commandExecutorError`); undefined when the engine's own limit. */
export function cantonCodeOf(error: EvalError): string | undefined {
  switch (error.kind) {
    case 'unhandledException': return 'UNHANDLED_EXCEPTION';
    case 'userError': return 'INTERPRETATION_USER_ERROR';
    case 'failWithStatus': return 'DAML_FAILURE';
    case 'ledger': {
      const f = error.failure;
      switch (f.kind) {
        case 'templatePreconditionViolated': return 'TEMPLATE_PRECONDITION_VIOLATED';
        case 'noSignatories': case 'noControllers': case 'createMissingAuthorization': case 'exerciseMissingAuthorization': case 'fetchMissingAuthorization':
          return 'DAML_AUTHORIZATION_ERROR';
        case 'contractNotActive': return f.consumedBy === undefined ? 'CONTRACT_NOT_FOUND' : 'CONTRACT_NOT_ACTIVE';
        case 'contractNotFound': return 'CONTRACT_NOT_FOUND';
        case 'wronglyTypedContract': return 'WRONGLY_TYPED_CONTRACT';
        case 'contractDoesNotImplementInterface': return 'CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE';
        case 'interfaceGuardFailed': return 'INTERPRETATION_DEV_ERROR';
        case 'unsupported': return undefined;
      }
      return undefined;
    }
    default: return undefined;
  }
}

export interface RefusedSubmission {
  readonly commands: readonly Json[];
  readonly actAs: readonly string[];
  readonly parties: readonly string[];
  /** The Canton error code the target refused with. */
  readonly code: string;
}

export type RefusalOutcome =
  | { readonly kind: 'agrees' }
  | { readonly kind: 'differs'; readonly differences: readonly Difference[] }
  | { readonly kind: 'skipped'; readonly reason: string };

export async function reinterpretRefusal(source: LedgerSource, s: RefusedSubmission): Promise<RefusalOutcome> {
  const skipped = (reason: string): RefusalOutcome => ({ kind: 'skipped', reason });
  if (!DAML_REFUSAL_CODES.has(s.code)) return skipped(`refused with ${s.code}, not an error of Daml interpretation`);
  const { need, getPackage } = packageFetcher(source);
  const inputs = new Map<string, LedgerContract>();
  const resolved: Resolved[] = [];
  for (const [i, c] of s.commands.entries()) {
    const [kind, body] = Object.entries(c)[0] ?? [];
    if (kind === undefined || !isObject(body) || typeof body.templateId !== 'string') return skipped(`commands[${i}] has no templateId`);
    if (kind === 'ExerciseByKeyCommand') return skipped(`commands[${i}] exercises by key, and a refused command names no contract to find it by`);
    const contractId = typeof body.contractId === 'string' ? body.contractId : undefined;
    let id = body.templateId.startsWith('#') ? undefined : parseTemplateId(body.templateId);
    if (contractId !== undefined && !inputs.has(contractId)) {
      const reported = await source.contract(contractId, s.parties, { fresh: true });
      if (reported === undefined) return skipped(`the input contract ${contractId} has no created event the suite's parties see`);
      if (reported.archived === true) return skipped(`the input contract ${contractId} is archived now, so whether it was active at the submission is not known`);
      const input = await inputContract(reported, need, getPackage);
      if (typeof input === 'string') return skipped(input);
      inputs.set(contractId, input);
    }
    if (id === undefined && body.templateId.startsWith('#')) {
      // By package name: the package of the contract exercised, when it is of that name and defines the entity.
      const named = parseTemplateId(body.templateId.slice(1));
      const at = contractId === undefined ? undefined : inputs.get(contractId)?.templateId.packageId;
      const pkg = at === undefined ? undefined : getPackage(at);
      const candidate: QualifiedName | undefined = named && at !== undefined ? { packageId: at, module: named.module, name: named.name } : undefined;
      if (named === undefined || pkg?.metadata?.name !== named.packageId || candidate === undefined
        || (lookupTemplate(getPackage, candidate) === undefined && lookupInterface(getPackage, candidate) === undefined)) {
        return skipped(`commands[${i}] names its template by package name (${body.templateId}), and a refused command shows no package the target chose`);
      }
      id = candidate;
    }
    if (id === undefined) return skipped(`commands[${i}].templateId '${body.templateId}' is not pkg:Module:Entity`);
    const why = await need(id.packageId);
    if (why !== undefined) return skipped(why);
    resolved.push({ kind, body, id, contractId });
  }
  const engine = new UpdateEngine({ getPackage, stepBudget: 10_000_000 });
  const created = new Map<string, LedgerContract>();
  for (const [i, c] of resolved.entries()) {
    const update = resolvedUpdate(c, getPackage, `commands[${i}]`);
    if (typeof update === 'string') return skipped(update);
    const r = engine.submit({
      update, submitters: s.actAs, transactionSeed: new Uint8Array(32).fill(i + 1), preparationTime: 0n, ledgerTime: 0n,
      getContract: (cid) => inputs.get(cid) ?? created.get(cid),
    });
    if (!r.ok) {
      const code = cantonCodeOf(r.error);
      if (code === undefined) return skipped(`the engine cannot run commands[${i}] (${r.error.kind})`);
      return code === s.code ? { kind: 'agrees' } : { kind: 'differs', differences: [{ id: 'judge.daml.error-code', path: `commands[${i}]`, target: s.code, engine: code }] };
    }
    for (const n of r.transaction.created) created.set(n.contractId, { templateId: n.templateId, argument: n.argument, signatories: n.signatories, observers: n.observers });
  }
  return { kind: 'differs', differences: [{ id: 'judge.daml.error-code', path: 'commands', target: s.code, engine: 'committed (no error)' }] };
}
