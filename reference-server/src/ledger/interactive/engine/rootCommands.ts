import type { Update } from '../../../../../daml-engine/ast/Expr.js';
import type { Transaction } from '../../../../../daml-engine/update/Transaction.js';
import { createCommand, exerciseCommand, exerciseInterfaceCommand } from '../../../../../daml-engine/update/UpdateEngine.js';

/**
 * The commands a transaction's root nodes stand for: a root create is a create command, a root
 * exercise an exercise command on its contract (through its interface when it has one). Fetches
 * and rollback nodes are never roots of a submitted transaction.
 */
export function rootCommandsOf(tx: Transaction): { readonly ok: true; readonly commands: Update[] } | { readonly ok: false; readonly problem: string } {
  const commands: Update[] = [];
  for (const root of tx.roots) {
    const n = tx.nodes[root];
    if (n?.kind === 'create') commands.push(createCommand(n.templateId, n.argument));
    else if (n?.kind === 'exercise') {
      commands.push(n.interfaceId === undefined ? exerciseCommand(n.templateId, n.contractId, n.choice, n.choiceArgument) : exerciseInterfaceCommand(n.interfaceId, n.contractId, n.choice, n.choiceArgument));
    } else return { ok: false, problem: `root node ${root} is neither a create nor an exercise` };
  }
  return commands.length === 0 ? { ok: false, problem: 'the transaction has no root nodes' } : { ok: true, commands };
}

/**
 * Commands as one update the engine runs in order (a submission's commands): each command's
 * root node takes the next root seed, as Canton numbers a multi-command submission's roots.
 */
export function commandsUpdate(commands: readonly Update[]): Update {
  if (commands.length === 1) return commands[0]!;
  const unit = { kind: 'builtin', builtin: 'UNIT', args: [] } as const;
  return {
    kind: 'block',
    bindings: commands.slice(0, -1).map((update, i) => ({ name: `command${i}`, type: unit, bound: { kind: 'update', update } })),
    body: { kind: 'update', update: commands[commands.length - 1]! },
  };
}
