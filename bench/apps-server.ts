/**
 * The reference server with the registry and Scan apps, in its own process, seeded in-process
 * (setup, not measured) and queried over HTTP by apps-run.ts.
 */
import { TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE, ACCOUNT_MAP_TEMPLATE, TOKEN_RULES_TEMPLATE, TRANSFER_PREAPPROVAL_TEMPLATE } from '../reference-server/src/apps/index.js';
import { silentLogger } from '../reference-server/src/http/api/consoleLogger.js';
import type { Command, Ledger } from '../reference-server/src/ledger/index.js';
import { createReferenceServer } from '../reference-server/src/server.js';
import { cpuMs, type AppsDriverMessage, type AppsServerMessage } from './apps-protocol.js';
import { memoryNow } from './servers/protocol.js';

const send = (m: AppsServerMessage | { kind: 'ready'; url: string }) => process.send?.(m);

const server = await createReferenceServer({ port: 0, log: silentLogger });
const { ledger } = server;
let submissions = 0;

function party(hint: string): string {
  const r = ledger.allocateParty({ partyIdHint: hint });
  if (!r.ok) throw new Error(r.error.cause);
  return r.value.partyDetails.party;
}

/** Interprets and commits, returning the created contract ids. */
function submit(l: Ledger, actAs: string[], commands: Command[]): string[] {
  const prepared = l.interpret({ userId: 'participant_admin', commandId: `apps-bench-${++submissions}`, actAs, commands });
  if (!prepared.ok) throw new Error(prepared.error.cause);
  const committed = l.commit(prepared.value);
  if (!committed.ok) throw new Error(committed.error.cause);
  return prepared.value.results as string[];
}

function seedPreapprovals(count: number, perReceiver: number, perCommand: number): AppsServerMessage {
  const t0 = performance.now();
  const dso = party('dso');
  const provider = party('provider');
  const receivers: string[] = [];
  const receiversPerCommand = Math.max(1, Math.floor(perCommand / perReceiver));
  const total = Math.ceil(count / perReceiver);
  for (let i = 0; i < total; i += receiversPerCommand) {
    const batch = Array.from({ length: Math.min(receiversPerCommand, total - i) }, (_, j) => party(`r${String(i + j).padStart(7, '0')}`));
    receivers.push(...batch);
    submit(
      ledger,
      [dso, provider, ...batch],
      batch.flatMap((receiver) =>
        Array.from({ length: perReceiver }, (_, k) => ({
          CreateCommand: {
            templateId: TRANSFER_PREAPPROVAL_TEMPLATE,
            createArguments: { dso, receiver, provider, validFrom: `2025-01-01T00:00:00.${String(k).padStart(6, '0')}Z`, lastRenewedAt: '2025-06-01T00:00:00Z', expiresAt: '2099-01-01T00:00:00Z' },
          },
        })),
      ),
    );
  }
  const memory = memoryNow(true);
  // A sample of the receivers travels back (100,000, or all of them when fewer); the driver picks
  // its random paths among them.
  return { kind: 'seeded-preapprovals', ms: Math.round(performance.now() - t0), receivers: sample(receivers, 100_000), heapMb: memory.heapUsedMb, rssMb: memory.rssMb };
}

function seedInstructions(count: number, perCommand: number): AppsServerMessage {
  const t0 = performance.now();
  const admin = party('registry-admin');
  const alice = party('alice');
  const venue = party('venue');
  submit(ledger, [admin], [
    { CreateCommand: { templateId: TOKEN_RULES_TEMPLATE, createArguments: { admin, instrumentId: 'SAMPLE' } } },
    { CreateCommand: { templateId: ACCOUNT_MAP_TEMPLATE, createArguments: { admin, accounts: [alice] } } },
  ]);
  const ids: string[] = [];
  for (let i = 0; i < count; i += perCommand) {
    const n = Math.min(perCommand, count - i);
    ids.push(
      ...submit(
        ledger,
        [admin],
        Array.from({ length: n }, (_, j) => ({
          CreateCommand: {
            templateId: TOKEN_ALLOCATION_INSTRUCTION_TEMPLATE,
            createArguments: {
              originalInstructionCid: null,
              admin,
              settlement: { executors: [venue], id: `trade-${i + j}`, meta: { values: {} } },
              allocation: {
                admin,
                authorizer: alice,
                transferLegSides: [{ transferLegId: 'leg-0', side: 'SenderSide', otherside: venue, amount: '100', instrumentId: 'SAMPLE' }],
                settlementDeadline: null,
                committed: false,
              },
              requestedAt: '2025-01-01T00:00:00Z',
            },
          },
        })),
      ),
    );
  }
  return { kind: 'seeded-instructions', ms: Math.round(performance.now() - t0), instructionIds: sample(ids, 10_000) };
}

function sample<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  const step = xs.length / n;
  return Array.from({ length: n }, (_, i) => xs[Math.floor(i * step)] as T);
}

process.on('message', (m: AppsDriverMessage) => {
  try {
    switch (m.cmd) {
      case 'seed-preapprovals':
        send(seedPreapprovals(m.count, m.perReceiver, m.perCommand));
        return;
      case 'seed-instructions':
        send(seedInstructions(m.count, m.perCommand));
        return;
      case 'cpu':
        send({ kind: 'cpu', ms: cpuMs() });
        return;
      case 'exit':
        void server.close().then(() => process.exit(0));
        return;
      default:
        send({ kind: 'error', message: `apps-server: unexpected ${m.cmd}` });
    }
  } catch (e) {
    send({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
  }
});

send({ kind: 'ready', url: server.url });
