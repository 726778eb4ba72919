/**
 * The benchmarks of the reference server, in one run, each server in its own process and
 * autocannon in this one:
 *
 * 1. GET /v2/version: reference server vs a bare Koa server answering the same JSON (target >= 0.7x).
 * 2. POST /v2/commands/submit-and-wait creating contracts at 10 connections (>= 5,000/s, p99 <= 20 ms).
 * 3. POST /v2/state/active-contracts over 100,000 contracts (first byte < 200 ms, whole < 2 s,
 *    server memory growth < 300 MB during the query).
 * 4. POST /v2/updates over 100,000 transactions (< 3 s).
 * 5. 1,000,000 active contracts held (< 2 GB of server memory).
 * 6. GET /v2/state/active-contracts-page: a walk over 100,000 contracts, 1,000 per page, beside the
 *    one-shot list of the same contracts (acspage).
 *
 * `npm run bench` builds into bench/out/build and runs this; results go to stdout (a Markdown
 * summary) and bench/out/results.json. Options: `--quick` (short runs, smaller sizes, to check
 * the harness), `--only version,submit,acs,updates,hold,acspage`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon, { type Options as CannonOptions, type Request as CannonRequest } from 'autocannon';
import { measureStream } from './measureStream.js';
import { walkActiveContractsPages } from './walkActiveContractsPages.js';
import { ServerProcess } from './servers/ServerProcess.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((a) => a.startsWith('--only='))?.slice('--only='.length) ?? args[args.indexOf('--only') + 1];
const only = new Set((args.includes('--only') || args.some((a) => a.startsWith('--only=')) ? (onlyArg ?? '') : 'version,submit,acs,updates,hold,acspage').split(','));

const DURATION = quick ? 3 : 10;
const WARMUP = quick ? 1 : 3;
const BIG = quick ? 10_000 : 100_000;
const HOLD = quick ? 100_000 : 1_000_000;
const CONNECTIONS = 10;

const results: Record<string, unknown> = {
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version },
  settings: { durationS: DURATION, warmupS: WARMUP, connections: CONNECTIONS, big: BIG, hold: HOLD },
};
const lines: string[] = [];
const log = (line: string) => {
  lines.push(line);
  console.log(line);
};

async function cannon(url: string, options: Partial<CannonOptions> = {}) {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP, ...options });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, ...options });
  return { reqPerSec: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts };
}

async function benchVersion(): Promise<void> {
  const bare = await ServerProcess.start('bareKoa');
  const reference = await ServerProcess.start('referenceServer');
  try {
    const rounds = [];
    // Alternate, so drift on a shared machine hits both sides alike.
    for (let round = 0; round < 2; round++) {
      const b = await cannon(`${bare.url}/v2/version`);
      const r = await cannon(`${reference.url}/v2/version`);
      rounds.push({ bare: b, reference: r, ratio: +(r.reqPerSec / b.reqPerSec).toFixed(2) });
    }
    const ratio = +(rounds.reduce((s, x) => s + x.ratio, 0) / rounds.length).toFixed(2);
    results['version'] = { rounds, ratio };
    log(`GET /v2/version: reference ${rounds.map((x) => x.reference.reqPerSec).join(' / ')} req/s, bare Koa ${rounds.map((x) => x.bare.reqPerSec).join(' / ')} req/s, ratio ${ratio} (target >= 0.7)`);
  } finally {
    await Promise.all([bare.stop(), reference.stop()]);
  }
}

async function benchSubmit(): Promise<void> {
  const bare = await ServerProcess.start('bareKoa');
  const reference = await ServerProcess.start('referenceServer');
  try {
    const { parties } = await reference.ask({ cmd: 'parties', hints: ['issuer', 'owner'] }, 'parties');
    const [issuer, owner] = parties as [string, string];
    let n = 0;
    const body = () =>
      JSON.stringify({
        commands: [{ CreateCommand: { templateId: '#canton-conformance-samples:Sample.Asset:Asset', createArguments: { issuer, owner, amount: '10.5', observers: null } } }],
        commandId: `bench-${process.pid}-${++n}`,
        userId: 'participant_admin',
        actAs: [issuer],
      });
    const requests = [{ method: 'POST', path: '/v2/commands/submit-and-wait', setupRequest: (req: CannonRequest) => ({ ...req, body: body() }) }];
    const b = await cannon(bare.url, { requests });
    const r = await cannon(reference.url, { requests });
    const { ledgerEnd } = await reference.ask({ cmd: 'seed', issuer, owner, contracts: 0, perCommand: 1 }, 'seeded');
    results['submit'] = { reference: r, bare: b, ratio: +(r.reqPerSec / b.reqPerSec).toFixed(2), ledgerEndAfter: ledgerEnd };
    log(
      `POST /v2/commands/submit-and-wait (1 create each, ${CONNECTIONS} connections): ${r.reqPerSec} commands/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx} ` +
        `(target >= 5,000/s, p99 <= 20 ms); bare Koa with the same body: ${b.reqPerSec} req/s`,
    );
  } finally {
    await Promise.all([bare.stop(), reference.stop()]);
  }
}

async function benchStreams(): Promise<void> {
  const reference = await ServerProcess.start('referenceServer');
  try {
    const { parties } = await reference.ask({ cmd: 'parties', hints: ['issuer', 'owner'] }, 'parties');
    const [issuer, owner] = parties as [string, string];
    const begin = (await reference.ask({ cmd: 'seed', issuer, owner, contracts: 0, perCommand: 1 }, 'seeded')).ledgerEnd;
    // One create per command: BIG contracts and BIG transactions at once.
    const seeded = await reference.ask({ cmd: 'seed', issuer, owner, contracts: BIG, perCommand: 1 }, 'seeded');
    const filter = { filtersByParty: { [owner]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] } }, verbose: true };

    if (only.has('acs')) {
      const body = { activeAtOffset: seeded.ledgerEnd, eventFormat: filter };
      // With `limit` the server streams from the first element; without it, it must first know the
      // list fits under http-list-max-elements-limit before it can send a status, so it reads ahead.
      const limited = `${reference.url}/v2/state/active-contracts?limit=${BIG}`;
      await measureStream(limited, body); // warm-up
      await reference.ask({ cmd: 'sample-start' }, 'memory');
      const t = await measureStream(limited, body);
      const mem = await reference.ask({ cmd: 'sample-stop' }, 'sample');
      const count = (JSON.parse(t.text) as unknown[]).length;
      const growth = { rssMb: mem.peak.rssMb - mem.start.rssMb, heapUsedMb: mem.peak.heapUsedMb - mem.start.heapUsedMb };
      await reference.ask({ cmd: 'sample-start' }, 'memory');
      const u = await measureStream(`${reference.url}/v2/state/active-contracts`, body);
      const memU = await reference.ask({ cmd: 'sample-stop' }, 'sample');
      const growthU = { rssMb: memU.peak.rssMb - memU.start.rssMb, heapUsedMb: memU.peak.heapUsedMb - memU.start.heapUsedMb };
      results['acs'] = {
        withLimit: { status: t.status, contracts: count, firstByteMs: Math.round(t.firstByteMs), totalMs: Math.round(t.totalMs), mb: +(t.bytes / 2 ** 20).toFixed(1), memoryGrowth: growth },
        withoutLimit: { status: u.status, firstByteMs: Math.round(u.firstByteMs), totalMs: Math.round(u.totalMs), memoryGrowth: growthU },
        seedMs: seeded.ms,
      };
      log(
        `POST /v2/state/active-contracts?limit=${BIG} over ${count} contracts: first byte ${Math.round(t.firstByteMs)} ms, whole ${Math.round(t.totalMs)} ms ` +
          `(${(t.bytes / 2 ** 20).toFixed(1)} MB), server memory growth RSS ${growth.rssMb} MB / heap ${growth.heapUsedMb} MB (targets < 200 ms, < 2 s, < 300 MB); ` +
          `without limit: first byte ${Math.round(u.firstByteMs)} ms, whole ${Math.round(u.totalMs)} ms, growth RSS ${growthU.rssMb} MB / heap ${growthU.heapUsedMb} MB`,
      );
    }
    if (only.has('acspage')) {
      const PAGE = 1000;
      await walkActiveContractsPages(reference.url, filter, PAGE); // warm-up
      const oneShot = await measureStream(`${reference.url}/v2/state/active-contracts?limit=${BIG}`, { activeAtOffset: seeded.ledgerEnd, eventFormat: filter });
      await reference.ask({ cmd: 'sample-start' }, 'memory');
      const w = await walkActiveContractsPages(reference.url, filter, PAGE);
      const mem = await reference.ask({ cmd: 'sample-stop' }, 'sample');
      // The same walk while the ledger moves on: one commit after every page; the token keeps the first page's offset.
      let n = 0;
      const moving = await walkActiveContractsPages(reference.url, filter, PAGE, async () => {
        n++;
        await reference.ask({ cmd: 'seed', issuer, owner, contracts: 1, perCommand: 1 }, 'seeded');
      });
      const growth = { rssMb: mem.peak.rssMb - mem.start.rssMb, heapUsedMb: mem.peak.heapUsedMb - mem.start.heapUsedMb };
      results['acspage'] = {
        pageSize: PAGE,
        walk: { ...w, totalMs: Math.round(w.totalMs), slowestPageMs: Math.round(w.slowestPageMs), memoryGrowth: growth },
        whileLedgerMoves: { ...moving, totalMs: Math.round(moving.totalMs), slowestPageMs: Math.round(moving.slowestPageMs), commitsDuringWalk: n },
        oneShotListMs: Math.round(oneShot.totalMs),
      };
      log(
        `GET /v2/state/active-contracts-page over ${w.distinct} contracts, ${PAGE} per page: ${w.pages} pages in ${Math.round(w.totalMs)} ms (slowest page ${Math.round(w.slowestPageMs)} ms), ` +
          `server memory growth RSS ${growth.rssMb} MB / heap ${growth.heapUsedMb} MB; one-shot POST /v2/state/active-contracts of the same set: ${Math.round(oneShot.totalMs)} ms; ` +
          `walk with a commit after every page: ${moving.pages} pages, ${moving.distinct} distinct contracts at offset ${moving.activeAtOffset} in ${Math.round(moving.totalMs)} ms`,
      );
    }
    if (only.has('updates')) {
      const body = {
        beginExclusive: begin,
        endInclusive: seeded.ledgerEnd,
        updateFormat: { includeTransactions: { eventFormat: filter, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
      };
      const url = `${reference.url}/v2/updates?limit=${BIG + 1}`;
      await measureStream(url, body); // warm-up
      const t = await measureStream(url, body);
      const count = (JSON.parse(t.text) as unknown[]).length;
      results['updates'] = { status: t.status, updates: count, firstByteMs: Math.round(t.firstByteMs), totalMs: Math.round(t.totalMs), mb: +(t.bytes / 2 ** 20).toFixed(1) };
      log(`POST /v2/updates over ${count} transactions: first byte ${Math.round(t.firstByteMs)} ms, whole ${Math.round(t.totalMs)} ms (${(t.bytes / 2 ** 20).toFixed(1)} MB) (target < 3 s)`);
    }
  } finally {
    await reference.stop();
  }
}

async function benchHold(): Promise<void> {
  const reference = await ServerProcess.start('referenceServer', ['--max-old-space-size=4096']);
  try {
    const before = (await reference.ask({ cmd: 'memory' }, 'memory')).memory;
    const { parties } = await reference.ask({ cmd: 'parties', hints: ['issuer', 'owner'] }, 'parties');
    const [issuer, owner] = parties as [string, string];
    // 100 creates per command: the contracts are what is held; the log holds 10,000 transactions.
    const seeded = await reference.ask({ cmd: 'seed', issuer, owner, contracts: HOLD, perCommand: 100 }, 'seeded');
    const after = (await reference.ask({ cmd: 'memory' }, 'memory')).memory;
    results['hold'] = { contracts: HOLD, before, after, seedMs: seeded.ms };
    log(`${HOLD} active contracts held: RSS ${after.rssMb} MB, heap ${after.heapUsedMb} MB after GC (empty server: RSS ${before.rssMb} MB, heap ${before.heapUsedMb} MB; seeded in ${(seeded.ms / 1000).toFixed(1)} s) (target < 2 GB)`);
  } finally {
    await reference.stop();
  }
}

log(`# canton-conformance benchmarks (${new Date().toISOString()}${quick ? ', --quick' : ''})`);
log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`);
if (only.has('version')) await benchVersion();
if (only.has('submit')) await benchSubmit();
if (only.has('acs') || only.has('updates') || only.has('acspage')) await benchStreams();
if (only.has('hold')) await benchHold();

const out = fileURLToPath(new URL('../../', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}results.json`, JSON.stringify(results, null, 2) + '\n');
console.log(`\nresults: ${out}results.json`);
