/**
 * The wallets of `splice-run.js --external`, in a child process as splice-wallets.ts: each
 * spends its own chain of an external party's amulets to bob the way wallet-sdk does for an
 * external party: POST the transfer factory, prepare the transfer (interactive submission), sign
 * the prepared transaction's hash with the party's Ed25519 key, then executeAndWaitForTransaction.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { TRANSFER_FACTORY_V1_INTERFACE } from '../reference-server/src/apps/tokenStandard/ids.js';
import { transferArgs, type Factory } from './token-transfer.js';
import { walletsProcess } from './walletsProcess.js';

interface Job {
  readonly url: string;
  readonly dso: string;
  /** The external party that sends, its key (PKCS#8 PEM) and the key's fingerprint. */
  readonly sender: string;
  readonly privateKeyPem: string;
  readonly fingerprint: string;
  readonly receiver: string;
  readonly synchronizerId: string;
  readonly inputs: readonly string[];
  readonly perWallet: number;
  readonly amuletTemplate: string;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const { post, report } = walletsProcess(job.url, job.inputs.length);
const key = createPrivateKey(job.privateKeyPem);

type Prepared = { preparedTransaction: string; preparedTransactionHash: string; hashingSchemeVersion: string };
type Tx = { transaction: { events: { CreatedEvent?: { contractId: string; templateId: string; createArgument: { owner?: string } } }[] } };

async function wallet(start: string, w: number): Promise<string> {
  let input = start;
  for (let i = 0; i < job.perWallet; i++) {
    const args = transferArgs({ dso: job.dso, alice: job.sender }, job.receiver, input);
    const f = (await post('/registry/transfer-instruction/v1/transfer-factory', { choiceArguments: args, excludeDebugFields: true })) as Factory;
    const p = (await post('/v2/interactive-submission/prepare', {
      userId: 'participant_admin',
      commandId: `x-${w}-${i}-${Math.random().toString(36).slice(2)}`,
      actAs: [job.sender],
      synchronizerId: job.synchronizerId,
      disclosedContracts: f.choiceContext.disclosedContracts,
      packageIdSelectionPreference: [],
      verboseHashing: false,
      commands: [{ ExerciseCommand: { templateId: TRANSFER_FACTORY_V1_INTERFACE, contractId: f.factoryId, choice: 'TransferFactory_Transfer', choiceArgument: { ...args, extraArgs: { context: f.choiceContext.choiceContextData, meta: { values: {} } } } } }],
    })) as Prepared;
    const signature = sign(null, Buffer.from(p.preparedTransactionHash, 'base64'), key).toString('base64');
    const tx = (await post('/v2/interactive-submission/executeAndWaitForTransaction', {
      preparedTransaction: p.preparedTransaction,
      hashingSchemeVersion: p.hashingSchemeVersion,
      submissionId: `s-${w}-${i}`,
      userId: 'participant_admin',
      deduplicationPeriod: { Empty: {} },
      partySignatures: { signatures: [{ party: job.sender, signatures: [{ format: 'SIGNATURE_FORMAT_CONCAT', signature, signedBy: job.fingerprint, signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519' }] }] },
      transactionFormat: { eventFormat: { filtersByParty: { [job.sender]: { cumulative: [] } }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
    })) as Tx;
    const change = tx.transaction.events.find((e) => e.CreatedEvent !== undefined && e.CreatedEvent.templateId === job.amuletTemplate && e.CreatedEvent.createArgument.owner === job.sender);
    if (change?.CreatedEvent === undefined) throw new Error('no change amulet');
    input = change.CreatedEvent.contractId;
  }
  return input;
}

await report(job.inputs, job.perWallet, wallet);
