/**
 * Zip bombs under the upload bound (64 MiB) against a running reference: how long each holds the
 * event loop (perf_hooks' event-loop delay, max) and what a client polling `GET /v2/version`
 * meanwhile sees (max latency). Bombs are built here with fflate. For comparison, a legitimate
 * upload of splice-amulet 0.1.22 when ../shared/upstream/daml/dars holds it.
 *
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/dar-zipbomb.js
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { zipSync } from 'fflate';
import { silentLogger } from '../reference-server/src/http/api/consoleLogger.js';
import { createReferenceServer } from '../reference-server/src/server.js';
import { declareEntrySizes } from '../conformance/src/generators/dar.js';

const MiB = 1024 * 1024;

async function main(): Promise<void> {
  const reference = await createReferenceServer({ port: 0, host: '127.0.0.1', log: silentLogger });
  const sync = reference.ledger.config.synchronizers[0]!.id;
  const here = fileURLToPath(new URL('.', import.meta.url));
  const amulet = [join(here, '../../../../../shared/upstream/daml/dars/splice/splice-amulet-0.1.22.dar'), join(here, '../../shared/upstream/daml/dars/splice/splice-amulet-0.1.22.dar')].find(existsSync);
  const cases: { what: string; bytes: Uint8Array }[] = [
    { what: 'declared sizes sum past the bound (3 entries x 64 MiB declared)', bytes: declareEntrySizes(zipSync({ 'a.dalf': new Uint8Array(16), 'b.dalf': new Uint8Array(16), 'c.dalf': new Uint8Array(16) }, { level: 0 }), 64 * MiB) },
    { what: 'lying header: 64 MiB of zeros declared as 1 KiB', bytes: declareEntrySizes(zipSync({ 'a.dalf': new Uint8Array(64 * MiB) }, { level: 6 }), 1024) },
    { what: 'honest, just under the bound: a 120 MiB DALF of zeros', bytes: zipSync({ 'META-INF/MANIFEST.MF': new TextEncoder().encode('Main-Dalf: a.dalf\n'), 'a.dalf': new Uint8Array(120 * MiB) }, { level: 6 }) },
    ...(amulet ? [{ what: 'legitimate: splice-amulet-0.1.22 (51 packages, decoded and checked)', bytes: readFileSync(amulet) }] : []),
  ];
  console.log('| upload | size | answer | event loop held (max) | GET /v2/version meanwhile (max) |');
  console.log('|---|---|---|---|---|');
  for (const c of cases) {
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    let polling = true;
    let maxGet = 0;
    const poller = (async () => {
      while (polling) {
        const t0 = performance.now();
        await (await fetch(`${reference.url}/v2/version`)).arrayBuffer();
        maxGet = Math.max(maxGet, performance.now() - t0);
      }
    })();
    const res = await fetch(`${reference.url}/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from(c.bytes) });
    const body = (await res.json()) as { code?: string };
    polling = false;
    await poller;
    h.disable();
    console.log(`| ${c.what} | ${(c.bytes.length / 1024).toFixed(0)} KiB | ${res.status} ${body.code ?? ''} | ${(h.max / 1e6).toFixed(0)} ms | ${maxGet.toFixed(0)} ms |`);
  }
  await reference.close();
}

await main();
