import type { Catalogue } from '../ledger/templates/Catalogue.js';
import { err, ok } from '../ledger/result.js';
import type { DamlRecord } from '../ledger/wire.js';

export const WALLET_PACKAGE = 'splice-wallet';
export const TRANSFER_PREAPPROVAL_PROPOSAL_TEMPLATE = `#${WALLET_PACKAGE}:Splice.Wallet.TransferPreapproval:TransferPreapprovalProposal`;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Splice's `Splice.Wallet.TransferPreapproval:TransferPreapprovalProposal {receiver, provider,
 * expectedDso: Optional Party}`, what the wallet SDK's `amulet.preapproval.command.create` has
 * the receiver sign: signatory receiver, observer provider. `TransferPreapprovalProposal_Accept
 * {context, inputs, expiresAt}` (controller provider) asks AmuletRules (whose DSO must be the
 * expected one) for the TransferPreapproval; on LocalNet the validator's automation accepts the
 * proposals that name it. Idempotent.
 */
export function registerWalletTemplates(catalogue: Catalogue): void {
  if (catalogue.resolve(TRANSFER_PREAPPROVAL_PROPOSAL_TEMPLATE).ok) return;
  const added = catalogue.addTemplate({
    packageName: WALLET_PACKAGE,
    module: 'Splice.Wallet.TransferPreapproval',
    entity: 'TransferPreapprovalProposal',
    fields: { receiver: 'Party', provider: 'Party', expectedDso: { optional: 'Party' } },
    signatories: ['receiver'],
    observers: ['provider'],
    choices: {
      TransferPreapprovalProposal_Accept: {
        consuming: true,
        argument: { record: { context: 'Any', inputs: { list: 'Any' }, expiresAt: 'Time' } },
        controllers: (self) => [text(self.argument.provider)],
        body: (ctx, self, arg) => {
          const a = arg as DamlRecord;
          const rulesCid = text(((a.context ?? {}) as DamlRecord).amuletRules);
          const rules = ctx.fetch(rulesCid);
          if (!rules.ok) return rules;
          if (!rules.value.templateId.endsWith(':Splice.AmuletRules:AmuletRules')) return err(ctx.fail(`${rulesCid} is not AmuletRules`));
          const expected = self.argument.expectedDso;
          if (typeof expected === 'string' && expected !== rules.value.argument.dso) return err(ctx.fail(`the expected DSO ${expected} is not AmuletRules' DSO`));
          const result = ctx.exercise(rulesCid, 'AmuletRules_CreateTransferPreapproval', {
            context: a.context ?? null,
            inputs: a.inputs ?? [],
            receiver: text(self.argument.receiver),
            provider: text(self.argument.provider),
            expiresAt: text(a.expiresAt),
          });
          return result.ok ? ok(result.value) : result;
        },
      },
      TransferPreapprovalProposal_Withdraw: {
        consuming: true,
        argument: { record: { reason: { optional: 'Text' } } },
        controllers: (self) => [text(self.argument.receiver)],
      },
      TransferPreapprovalProposal_Reject: {
        consuming: true,
        argument: { record: { reason: { optional: 'Text' } } },
        controllers: (self) => [text(self.argument.provider)],
      },
    },
  });
  if (!added.ok) throw new Error(`the wallet templates cannot be declared: ${added.error.cause}`);
}
