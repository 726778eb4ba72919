/**
 * The wallets of the splice-run transfer benchmark, in a child process (its job as the first
 * argument, its answer sent over IPC), so the server's process CPU time is the server's alone:
 * each wallet spends its own chain of alice's amulets, doing what wallet-sdk does per transfer:
 * POST the transfer factory, then POST submit-and-wait-for-transaction with the context and its
 * disclosed contracts; alice's change (the one Amulet she sees created) is the next input.
 */
import { exerciseBody, transferArgs, type Factory, type Parties } from './token-transfer.js';
import { walletsProcess } from './walletsProcess.js';

interface Job {
  readonly url: string;
  readonly parties: Parties;
  readonly receiver: string;
  /** One starting holding per wallet. */
  readonly inputs: readonly string[];
  readonly perWallet: number;
  /** Template id (package-id form) of Amulet, to find the change. */
  readonly amuletTemplate: string;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const { post, report } = walletsProcess(job.url, job.inputs.length);

type Tx = { transaction: { events: { CreatedEvent?: { contractId: string; templateId: string; createArgument: { owner?: string } } }[] } };

async function wallet(start: string, w: number): Promise<string> {
  let input = start;
  for (let i = 0; i < job.perWallet; i++) {
    const args = transferArgs(job.parties, job.receiver, input);
    const f = (await post('/registry/transfer-instruction/v1/transfer-factory', { choiceArguments: args, excludeDebugFields: true })) as Factory;
    const tx = (await post('/v2/commands/submit-and-wait-for-transaction', {
      commands: exerciseBody(job.parties, f, args, w * 1_000_000 + i),
      transactionFormat: { eventFormat: { filtersByParty: { [job.parties.alice]: { cumulative: [] } }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
    })) as Tx;
    const change = tx.transaction.events.find((e) => e.CreatedEvent !== undefined && e.CreatedEvent.templateId === job.amuletTemplate && e.CreatedEvent.createArgument.owner === job.parties.alice);
    if (change?.CreatedEvent === undefined) throw new Error('no change amulet');
    input = change.CreatedEvent.contractId;
  }
  return input;
}

await report(job.inputs, job.perWallet, wallet);
