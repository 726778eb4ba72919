/**
 * The reference server for the durable-store benchmark, in its own process. With
 * BENCH_DATA_DIR it keeps its ledger in SQLite there (BENCH_SYNCHRONOUS: NORMAL or FULL), reading
 * back what the directory holds; without, in memory. `ready` reports how long opening and
 * replaying the ledger took.
 */
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { ASSET_TEMPLATE, createLedger, resolveConfig } from '../../reference-server/src/ledger/index.js';
import { createReferenceServer } from '../../reference-server/src/server.js';
import { SqliteStore } from '../../reference-server/src/store/sqlite/SqliteStore.js';
import type { DriverMessage, ServerMessage } from './protocol.js';

const send = (m: ServerMessage) => process.send?.(m);

const dir = process.env['BENCH_DATA_DIR'];
const synchronous = process.env['BENCH_SYNCHRONOUS'] === 'FULL' ? 'FULL' : 'NORMAL';
const t0 = performance.now();
const store = dir === undefined ? undefined : SqliteStore.open(dir, { participantId: resolveConfig().participantId, synchronous });
const ledger = createLedger({ listMaxElements: 2_000_000, ...(store === undefined ? {} : { store, blobKey: store.blobKey }) });
ledger.recover();
const startMs = Math.round(performance.now() - t0);
const server = await createReferenceServer({ port: 0, log: silentLogger, ledger });

process.on('message', (m: DriverMessage) => {
  void (async () => {
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
        // One command per commit, committed in steps of 1,000 as a stream of clients would.
        const started = performance.now();
        const command = { CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer: m.issuer, owner: m.owner, amount: '10.5', observers: null } } };
        for (let i = 0; i < m.contracts / m.perCommand; i++) {
          const r = ledger.submitAndWait({ userId: 'participant_admin', commandId: `seed-${i}-${process.hrtime.bigint()}`, actAs: [m.issuer], commands: Array.from({ length: m.perCommand }, () => command) });
          if (!r.ok) throw new Error(r.error.cause);
          if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
        }
        await new Promise((resolve) => setImmediate(resolve));
        send({ kind: 'seeded', ms: Math.round(performance.now() - started), ledgerEnd: ledger.ledgerEnd().offset });
        return;
      }
      case 'exit':
        await server.close();
        store?.close();
        process.exit(0);
        return;
      default:
        send({ kind: 'error', message: `durableServer does not do ${m.cmd}` });
    }
  })().catch((e: unknown) => send({ kind: 'error', message: e instanceof Error ? e.message : String(e) }));
});

send({ kind: 'ready', url: server.url, startMs });
