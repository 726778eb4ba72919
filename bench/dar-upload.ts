/**
 * DAR upload: a 10 MB DAR through POST /v2/dars on the reference server, side by side with a bare
 * Koa server that only reads the same body and answers {} (the named baseline), then the package
 * fetched back. Each upload is a fresh package (so every one is really parsed, hashed, recorded
 * and vetted). Build and run:
 *   npx tsc -p bench/tsconfig.bench.json && node bench/out/build/bench/dar-upload.js [rounds] [megabytes]
 * Prints one JSON object. Both servers run in this process, on loopback.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { buildDalf, buildDar } from '../conformance/src/generators/dar.js';
import { silentLogger } from '../reference-server/src/http/api/consoleLogger.js';
import { createReferenceServer } from '../reference-server/src/server.js';

const rounds = Number(process.argv[2] ?? 5);
const megabytes = Number(process.argv[3] ?? 10);

/** A DAR of about `megabytes` MB: the bulk is random text inside the package (so the zip cannot shrink it). */
function bigDar(i: number): { bytes: Uint8Array; packageId: string; payloadBytes: number } {
  const salt = randomBytes(Math.floor((megabytes * 1024 * 1024 * 3) / 4)).toString('base64');
  const main = buildDalf({ name: `bench-dar-${i}`, version: '1.0.0', salt });
  return { bytes: buildDar({ main }), packageId: main.packageId, payloadBytes: main.payload.length };
}

async function timed(url: string, body: Uint8Array): Promise<{ ms: number; status: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from(body) });
  await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status };
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: Math.round(s[0] ?? 0), median: Math.round(s[Math.floor(s.length / 2)] ?? 0), max: Math.round(s[s.length - 1] ?? 0) };
};

async function main(): Promise<void> {
  const reference = await createReferenceServer({ port: 0, host: '127.0.0.1', log: silentLogger });
  const sync = reference.ledger.config.synchronizers[0].id;
  const bare = new Koa();
  bare.use(async (ctx) => {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    Buffer.concat(chunks);
    ctx.body = {};
  });
  const bareServer = bare.listen(0, '127.0.0.1');
  await new Promise<void>((r) => bareServer.once('listening', () => r()));
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/v2/dars`;

  const dars = Array.from({ length: rounds + 1 }, (_, i) => bigDar(i));
  const ref: number[] = [];
  const base: number[] = [];
  const fetchMs: number[] = [];
  // Round 0 warms both up and is not counted; rounds alternate reference and baseline.
  for (const [i, dar] of dars.entries()) {
    const r = await timed(`${reference.url}/v2/dars?synchronizerId=${encodeURIComponent(sync)}`, dar.bytes);
    if (r.status !== 200) throw new Error(`upload ${i}: HTTP ${r.status}`);
    const b = await timed(bareUrl, dar.bytes);
    const t0 = performance.now();
    const got = Buffer.from(await (await fetch(`${reference.url}/v2/packages/${dar.packageId}`)).arrayBuffer());
    const f = performance.now() - t0;
    if (createHash('sha256').update(got).digest('hex') !== dar.packageId) throw new Error('fetched package differs');
    if (i === 0) continue;
    ref.push(r.ms);
    base.push(b.ms);
    fetchMs.push(f);
  }
  const refS = stats(ref);
  const baseS = stats(base);
  console.log(
    JSON.stringify(
      {
        rounds,
        darBytes: dars[1]?.bytes.length,
        payloadBytes: dars[1]?.payloadBytes,
        uploadMs: refS,
        bareKoaReadBodyMs: baseS,
        ratioMedian: Number((refS.median / Math.max(1, baseS.median)).toFixed(2)),
        fetchPackageMs: stats(fetchMs),
        listedPackages: reference.ledger.listPackages().packageIds.length,
        rssMb: Math.round(process.memoryUsage().rss / 1048576),
      },
      null,
      2,
    ),
  );
  bareServer.close();
  await reference.close();
}

void main();
