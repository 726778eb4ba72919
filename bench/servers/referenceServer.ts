/**
 * The reference server under benchmark, in its own process: seeded through the ledger in-process
 * (seeding is setup, not what is measured), queried over HTTP by the driver.
 */
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { ASSET_TEMPLATE } from '../../reference-server/src/ledger/index.js';
import { createReferenceServer } from '../../reference-server/src/server.js';
import { memoryNow, type DriverMessage, type MemorySnapshot, type ServerMessage } from './protocol.js';

const send = (m: ServerMessage) => process.send?.(m);

const server = await createReferenceServer({
  port: 0,
  log: silentLogger,
  // Lists of 100,000+ elements are what the benchmarks ask for.
  ledgerOptions: { listMaxElements: 2_000_000 },
});
const { ledger } = server;

let sampler: NodeJS.Timeout | undefined;
let start: MemorySnapshot = memoryNow(false);
let peak: MemorySnapshot = start;

process.on('message', (m: DriverMessage) => {
  try {
    switch (m.cmd) {
      case 'parties': {
        const parties = m.hints.map((hint) => {
          const r = ledger.allocateParty({ partyIdHint: hint });
          if (!r.ok) throw new Error(r.error.cause);
          return r.value.partyDetails.party;
        });
        send({ kind: 'parties', parties });
        return;
      }
      case 'seed': {
        const t0 = performance.now();
        const command = { CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: m.issuer, owner: m.owner, amount: '10.5', observers: null } } };
        for (let i = 0; i < m.contracts / m.perCommand; i++) {
          const r = ledger.submitAndWait({
            userId: 'participant_admin',
            commandId: `seed-${i}-${process.hrtime.bigint()}`,
            actAs: [m.issuer],
            commands: Array.from({ length: m.perCommand }, () => command),
          });
          if (!r.ok) throw new Error(r.error.cause);
        }
        send({ kind: 'seeded', ms: Math.round(performance.now() - t0), ledgerEnd: ledger.ledgerEnd().offset });
        return;
      }
      case 'memory':
        send({ kind: 'memory', memory: memoryNow(true) });
        return;
      case 'sample-start':
        start = memoryNow(true);
        peak = start;
        sampler = setInterval(() => {
          const now = memoryNow(false);
          peak = { rssMb: Math.max(peak.rssMb, now.rssMb), heapUsedMb: Math.max(peak.heapUsedMb, now.heapUsedMb) };
        }, 5);
        send({ kind: 'memory', memory: start });
        return;
      case 'sample-stop':
        clearInterval(sampler);
        send({ kind: 'sample', start, peak });
        return;
      case 'exit':
        void server.close().then(() => process.exit(0));
        return;
    }
  } catch (e) {
    send({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
  }
});

send({ kind: 'ready', url: server.url });
