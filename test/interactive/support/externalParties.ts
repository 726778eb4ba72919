import { expect } from 'vitest';
import { post } from '../../http/support/ledgerApi.js';
import type { TestServer } from '../../http/support/startServer.js';
import { signHash, type TestKey } from './keys.js';

export type Headers = Record<string, string>;

/** Onboards an external party the way a wallet does: generate the topology, sign the multi-hash, allocate. */
export async function onboard(server: TestServer, admin: Headers, hint: string, key: TestKey, synchronizer: string): Promise<string> {
  const generated = await post(server, '/v2/parties/external/generate-topology', { synchronizer, partyHint: hint, publicKey: key.publicKey }, { headers: admin });
  expect(generated.status, generated.text).toBe(200);
  const allocated = await post(
    server,
    '/v2/parties/external/allocate',
    {
      synchronizer,
      onboardingTransactions: (generated.body.topologyTransactions as string[]).map((transaction) => ({ transaction })),
      multiHashSignatures: [signHash(key, generated.body.multiHash as string)],
    },
    { headers: admin },
  );
  expect(allocated.status, allocated.text).toBe(200);
  return allocated.body.partyId as string;
}

export const ASSET = '#canton-conformance-samples:Sample.Asset:Asset';

let n = 0;
export const freshId = (prefix: string) => `${prefix}-${process.pid}-${++n}`;

export const createAssetCommand = (issuer: string, owner: string, amount = '5.0') => ({
  CreateCommand: { templateId: ASSET, createArguments: { issuer, owner, amount, observers: null } },
});

export const archiveCommand = (contractId: string) => ({ ExerciseCommand: { templateId: ASSET, contractId, choice: 'Archive', choiceArgument: {} } });

/** A prepare body as wallet-sdk sends it. */
export function prepareBody(actAs: string, commands: unknown[], extra: Record<string, unknown> = {}) {
  return {
    commands,
    commandId: freshId('prep'),
    actAs: [actAs],
    readAs: [],
    disclosedContracts: [],
    packageIdSelectionPreference: [],
    verboseHashing: false,
    ...extra,
  };
}

/** An execute body as wallet-sdk sends it (executeAndWait, dedup Empty, CONCAT Ed25519). */
export function executeBody(preparedTransaction: string, signatures: { party: string; signatures: unknown[] }[], extra: Record<string, unknown> = {}) {
  return {
    preparedTransaction,
    hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    submissionId: freshId('sub'),
    deduplicationPeriod: { Empty: {} },
    partySignatures: { signatures },
    ...extra,
  };
}

/** An execute request for the service in process: `party`'s signature over `prepared` (the fields wallet-sdk sends; `extra` adds or replaces). */
export function executeRequestOf(key: TestKey, party: string, prepared: { readonly preparedTransaction: string; readonly preparedTransactionHash: string }, extra: Record<string, unknown> = {}): never {
  return {
    preparedTransaction: prepared.preparedTransaction,
    hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    submissionId: freshId('sub'),
    userId: 'wallet',
    deduplicationPeriod: { Empty: {} },
    partySignatures: { signatures: [{ party, signatures: [signHash(key, prepared.preparedTransactionHash)] }] },
    ...extra,
  } as never;
}
