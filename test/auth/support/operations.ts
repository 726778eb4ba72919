import { interactiveSubmissionOf } from '../../../reference-server/src/ledger/interactive/index.js';
import { newKey, signHash } from '../../interactive/support/keys.js';
import type { SecuredWorld } from './securedServer.js';

export const ASSET = '#canton-conformance-samples:Sample.Asset:Asset';

/** One request of an operation class, built for a world (bodies are valid, so only auth can fail). */
export interface Operation {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
}

let n = 0;
const id = (prefix: string) => `${prefix}-${process.pid}-${++n}`;

export const createAsset = (issuer: string, owner: string, extra: Record<string, unknown> = {}) => ({
  commands: [{ CreateCommand: { templateId: ASSET, createArguments: { issuer, owner, amount: '5.0', observers: null } } }],
  commandId: id('cmd'),
  actAs: [issuer],
  ...extra,
});

const readFilter = (party: string) => ({ filtersByParty: { [party]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }] } }, verbose: true });

function must<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; cause: string } }): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.cause}`);
  return r.value;
}

/**
 * Every class of group B operation, one representative each: public-but-authenticated reads,
 * reads as a party, submissions, interactive submission, user and party management, self-service.
 * Fresh ids each time, so every request would succeed for a caller with the rights.
 */
export function operationClasses(w: SecuredWorld): Operation[] {
  const interactive = interactiveSubmissionOf(w.ledger);
  const synchronizer = w.ledger.config.synchronizers[0].id;
  const prepared = must(interactive.prepare({ userId: 'root', commandId: id('ext'), commands: [createAsset(w.ext.party, w.ext.party).commands[0]!], actAs: [w.ext.party] }));
  const onboarding = newKey('ed25519');
  const topology = must(interactive.generateTopology({ synchronizer, partyHint: id('onboard'), publicKey: onboarding.publicKey }));
  return [
    { name: 'prepare (read as party)', method: 'POST', path: '/v2/interactive-submission/prepare', body: { commands: createAsset(w.ext.party, w.ext.party).commands, commandId: id('prep'), actAs: [w.ext.party] } },
    {
      name: 'execute and wait (execute as party)',
      method: 'POST',
      path: '/v2/interactive-submission/executeAndWait',
      body: {
        preparedTransaction: prepared.preparedTransaction,
        partySignatures: { signatures: [{ party: w.ext.party, signatures: [signHash(w.ext.key, prepared.preparedTransactionHash)] }] },
        submissionId: id('sub'),
        hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
        deduplicationPeriod: { Empty: {} },
      },
    },
    { name: 'generate external topology (admin)', method: 'POST', path: '/v2/parties/external/generate-topology', body: { synchronizer, partyHint: id('gen'), publicKey: newKey('p256').publicKey } },
    {
      name: 'allocate external party (admin)',
      method: 'POST',
      path: '/v2/parties/external/allocate',
      body: { synchronizer, onboardingTransactions: topology.topologyTransactions.map((transaction) => ({ transaction })), multiHashSignatures: [signHash(onboarding, topology.multiHash)] },
    },
    { name: 'version (any user)', method: 'GET', path: '/v2/version' },
    { name: 'ledger end (any user)', method: 'GET', path: '/v2/state/ledger-end' },
    { name: 'authenticated user (self)', method: 'GET', path: '/v2/authenticated-user' },
    { name: 'own user record (self)', method: 'GET', path: '/v2/users/root' },
    { name: 'list users (admin)', method: 'GET', path: '/v2/users' },
    { name: 'list parties (admin)', method: 'GET', path: '/v2/parties' },
    { name: 'allocate party (admin)', method: 'POST', path: '/v2/parties', body: { partyIdHint: id('p') } },
    { name: 'active contracts (read as party)', method: 'POST', path: '/v2/state/active-contracts', body: { activeAtOffset: 0, eventFormat: readFilter(w.alice) } },
    { name: 'updates (read as party)', method: 'POST', path: '/v2/updates?stream_idle_timeout_ms=10', body: { beginExclusive: 0, endInclusive: 0, updateFormat: { includeTransactions: { eventFormat: readFilter(w.alice), transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } } },
    { name: 'completions (read as party, self)', method: 'POST', path: '/v2/commands/completions?stream_idle_timeout_ms=10', body: { userId: 'root', parties: [w.alice], beginExclusive: 0 } },
    { name: 'submit and wait (act as party)', method: 'POST', path: '/v2/commands/submit-and-wait', body: createAsset(w.alice, w.alice) },
    { name: 'async submit (act as party)', method: 'POST', path: '/v2/commands/async/submit', body: createAsset(w.alice, w.alice) },
  ];
}
