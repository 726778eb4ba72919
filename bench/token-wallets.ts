/**
 * The wallets of the token-registry HTTP benchmark, in a worker thread so that clients and server
 * each have an event loop (and, on two cores, a core) of their own. Each wallet does what
 * wallet-sdk does per transfer: POST the transfer factory, then POST submit-and-wait with the
 * context and its disclosed contracts. Keep-alive `node:http` rather than `fetch`: undici's fetch
 * costs the client more CPU per request than the server spends answering it.
 */
import { keepAlivePost } from './keepAlivePost.js';
import { Agent } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { exerciseBody, transferArgs, type Factory, type Parties } from './token-transfer.js';

interface Job {
  readonly url: string;
  readonly parties: Parties;
  readonly receiver: string;
  readonly inputs: readonly string[];
  readonly wallets: number;
}

const job = workerData as Job;
const agent = new Agent({ keepAlive: true, maxSockets: job.wallets });
const post = keepAlivePost(agent, job.url);

let next = 0;
async function wallet(): Promise<void> {
  for (let i = next++; i < job.inputs.length; i = next++) {
    const args = transferArgs(job.parties, job.receiver, job.inputs[i] as string);
    const f = (await post('/registry/transfer-instruction/v1/transfer-factory', { choiceArguments: args, excludeDebugFields: true })) as Factory;
    await post('/v2/commands/submit-and-wait', exerciseBody(job.parties, f, args, i));
  }
}

const t0 = performance.now();
await Promise.all(Array.from({ length: job.wallets }, wallet));
parentPort?.postMessage({ done: job.inputs.length, ms: performance.now() - t0 });
agent.destroy();
