/**
 * In-process throughput and memory of the ledger core, without HTTP: the ceiling the HTTP face
 * works under. Build and run:
 *   npx tsc -p tsconfig.json --outDir /tmp/cc-bench && node --expose-gc /tmp/cc-bench/bench/ledger-core.js [contracts]
 * Prints one JSON object.
 */
import { ASSET_TEMPLATE, createLedger } from '../reference-server/src/ledger/index.js';
import type { Ledger } from '../reference-server/src/ledger/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = () => {
  gc?.();
  return Math.round(process.memoryUsage().heapUsed / 1048576);
};

function party(ledger: Ledger, hint: string): string {
  const r = ledger.allocateParty({ partyIdHint: hint });
  if (!r.ok) throw new Error(r.error.cause);
  return r.value.partyDetails.party;
}

function creates(ledger: Ledger, issuer: string, owner: string, n: number, perCommand = 1): number {
  const t0 = performance.now();
  for (let i = 0; i < n / perCommand; i++) {
    const r = ledger.submitAndWait({
      userId: 'bench',
      commandId: `c-${i}-${Math.floor(Math.random() * 1e9)}`,
      actAs: [issuer],
      commands: Array.from({ length: perCommand }, () => ({ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner, amount: '10.5' } } })),
    });
    if (!r.ok) throw new Error(r.error.cause);
  }
  return performance.now() - t0;
}

const big = Number(process.argv[2] ?? 1_000_000);
const out: Record<string, unknown> = {};

{
  const ledger = createLedger();
  const issuer = party(ledger, 'issuer');
  const alice = party(ledger, 'alice');
  creates(ledger, issuer, alice, 5_000); // warm-up
  const n = 100_000;
  const ms = creates(ledger, issuer, alice, n);
  out.createsPerSecond = Math.round((n / ms) * 1000);

  const end = ledger.ledgerEnd().offset;
  const acs = ledger.activeContracts({ activeAtOffset: end, eventFormat: { filtersByParty: { [alice]: {} } } });
  if (!acs.ok) throw new Error(acs.error.cause);
  const t0 = performance.now();
  const it = acs.value[Symbol.iterator]();
  JSON.stringify(it.next().value);
  const first = performance.now() - t0;
  let count = 1;
  let bytes = 0;
  for (let r = it.next(); !r.done; r = it.next()) {
    bytes += JSON.stringify(r.value).length;
    count++;
  }
  out.acs = { contracts: count, firstElementMs: +first.toFixed(2), totalMs: Math.round(performance.now() - t0), mb: Math.round(bytes / 1048576) };

  const u = ledger.updates({ beginExclusive: 0, filter: { filtersByParty: { [alice]: {} } } });
  if (!u.ok) throw new Error(u.error.cause);
  const t1 = performance.now();
  let updates = 0;
  for (const x of u.value) {
    JSON.stringify(x);
    updates++;
  }
  out.updates = { updates, totalMs: Math.round(performance.now() - t1) };
}

{
  const before = heapMb();
  const ledger = createLedger();
  const issuer = party(ledger, 'issuer');
  const owners = Array.from({ length: 10 }, (_, i) => party(ledger, `owner${i}`));
  const t0 = performance.now();
  // one create per transaction, the worst case for memory (a log entry and dedup record each)
  for (let i = 0; i < big; i++) {
    const owner = owners[i % owners.length] as string;
    const r = ledger.submitAndWait({
      userId: 'bench',
      commandId: `m-${i}`,
      actAs: [issuer],
      commands: [{ CreateCommand: { templateId: ASSET_TEMPLATE, createArguments: { issuer, owner, amount: String(i + 1) } } }],
    });
    if (!r.ok) throw new Error(r.error.cause);
  }
  out.million = { contracts: big, loadSeconds: Math.round((performance.now() - t0) / 1000), heapMb: heapMb() - before, rssMb: Math.round(process.memoryUsage().rss / 1048576) };
}

console.log(JSON.stringify(out));
