/**
 * Interactive submission throughput in process, without HTTP: prepare, sign (Ed25519), execute
 * and wait, one command at a time, for a create and for an exercise (archive) of the contract just
 * created. Measures what the prepared-transaction encoding, the hash and the execute-time rebuild
 * cost. Build and run:
 *   npx tsc -p tsconfig.json --outDir /tmp/cc-bench && node /tmp/cc-bench/bench/interactive-core.js [seconds]
 * Prints one JSON object.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { ASSET_TEMPLATE, createLedger } from '../reference-server/src/ledger/index.js';
import { interactiveSubmissionOf } from '../reference-server/src/ledger/interactive/index.js';

const seconds = Number(process.argv[2] ?? 10);
const ledger = createLedger();
const service = interactiveSubmissionOf(ledger);
const synchronizer = ledger.config.synchronizers[0].id;
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const keyData = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');

function must<T>(r: { ok: true; value: T } | { ok: false; error: { cause: string } }): T {
  if (!r.ok) throw new Error(r.error.cause);
  return r.value;
}

const topology = must(service.generateTopology({ synchronizer, partyHint: 'bench', publicKey: { format: 'CRYPTO_KEY_FORMAT_RAW', keyData, keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519' } }));
const signature = (hash: string) => ({
  format: 'SIGNATURE_FORMAT_CONCAT',
  signature: sign(null, Buffer.from(hash, 'base64'), privateKey).toString('base64'),
  signedBy: topology.publicKeyFingerprint,
  signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
});
const party = must(
  service.allocateExternalParty({
    synchronizer,
    onboardingTransactions: topology.topologyTransactions.map((transaction) => ({ transaction })),
    multiHashSignatures: [signature(topology.multiHash)],
  }),
).partyId;

let n = 0;
let prepareMs = 0;
let executeMs = 0;
/** One prepare + sign + executeAndWait; answers the created contract id (if any). */
function flow(commands: Record<string, unknown>[]): string | undefined {
  const t0 = performance.now();
  const prepared = must(service.prepare({ commandId: `bench-${++n}`, userId: 'bench', actAs: [party], commands: commands as never, estimateTrafficCost: { disabled: true } }));
  const t1 = performance.now();
  prepareMs += t1 - t0;
  const done = must(
    service.executeAndWaitForTransaction({
      preparedTransaction: prepared.preparedTransaction,
      hashingSchemeVersion: prepared.hashingSchemeVersion,
      submissionId: `s-${n}`,
      userId: 'bench',
      partySignatures: { signatures: [{ party, signatures: [signature(prepared.preparedTransactionHash)] }] },
    }),
  );
  executeMs += performance.now() - t1;
  const created = done.transaction.events.find((e) => 'CreatedEvent' in e) as { CreatedEvent: { contractId: string } } | undefined;
  return created?.CreatedEvent.contractId;
}

const create = () => flow([{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: party, owner: party, amount: '10.5', observers: null } } }]);
const archive = (contractId: string) => flow([{ ExerciseCommand: { templateId: ASSET_TEMPLATE, contractId, choice: 'Archive', choiceArgument: {} } }]);

// Warm-up, then alternate: create a contract, archive it.
for (let i = 0; i < 200; i++) archive(create()!);
prepareMs = 0;
executeMs = 0;
let creates = 0;
let archives = 0;
let createMs = 0;
let archiveMs = 0;
const end = performance.now() + seconds * 1000;
while (performance.now() < end) {
  let t = performance.now();
  const cid = create()!;
  createMs += performance.now() - t;
  creates++;
  t = performance.now();
  archive(cid);
  archiveMs += performance.now() - t;
  archives++;
}
console.log(
  JSON.stringify({
    seconds,
    createFlowsPerSecond: Math.round((creates / createMs) * 1000),
    archiveFlowsPerSecond: Math.round((archives / archiveMs) * 1000),
    flowsPerSecond: Math.round(((creates + archives) / (createMs + archiveMs)) * 1000),
    prepareMsPerFlow: Number((prepareMs / (creates + archives)).toFixed(3)),
    executeMsPerFlow: Number((executeMs / (creates + archives)).toFixed(3)),
    preparedTransactionBytes: Buffer.byteLength(must(service.prepare({ commandId: 'size', userId: 'bench', actAs: [party], commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: party, owner: party, amount: '10.5', observers: null } } }] as never })).preparedTransaction, 'base64'),
  }),
);
