/** One transfer through Amulet's transfer factory, as wallet-sdk builds it (shared by the token-registry benchmark's parts). */
import { TRANSFER_FACTORY_V1_INTERFACE } from '../reference-server/src/apps/tokenStandard/ids.js';

export interface Parties {
  readonly dso: string;
  readonly alice: string;
}

export type Factory = { factoryId: string; choiceContext: { choiceContextData: unknown; disclosedContracts: unknown[] } };

export function transferArgs(parties: Parties, receiver: string, input: string) {
  const now = Date.now();
  return {
    expectedAdmin: parties.dso,
    transfer: {
      sender: parties.alice,
      receiver,
      amount: '1.0',
      instrumentId: { admin: parties.dso, id: 'Amulet' },
      requestedAt: new Date(now - 60_000).toISOString(),
      executeBefore: new Date(now + 3_600_000).toISOString(),
      inputHoldingCids: [input],
      meta: { values: {} },
    },
    extraArgs: { context: { values: {} }, meta: { values: {} } },
  };
}

export const exerciseBody = (parties: Parties, f: Factory, args: ReturnType<typeof transferArgs>, i: number) => ({
  userId: 'participant_admin',
  commandId: `t-${i}-${Math.random().toString(36).slice(2)}`,
  actAs: [parties.alice],
  disclosedContracts: f.choiceContext.disclosedContracts,
  commands: [{ ExerciseCommand: { templateId: TRANSFER_FACTORY_V1_INTERFACE, contractId: f.factoryId, choice: 'TransferFactory_Transfer', choiceArgument: { ...args, extraArgs: { context: f.choiceContext.choiceContextData, meta: { values: {} } } } } }],
});
