/**
 * Issue 30's last promise: "nothing lost or half-recorded after kill -9 during any of it". A
 * server on `--data-dir` takes hostile work (refused DARs, commands past their bounds, a looping
 * command) and is killed the hard way while a large valid upload and a looping command are in
 * flight. On restart, what was acknowledged is there, what was refused left no trace, the upload
 * that was cut is all or nothing, and the next uploads and commands work.
 *
 * Where the kill lands inside the server's work is not fixed (the test never sleeps): every
 * assertion holds wherever it lands.
 */
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { E } from '../../daml-engine/build/E.js';
import { PackageBuilder, type BuiltPackage } from '../../daml-engine/build/PackageBuilder.js';
import { T } from '../../daml-engine/build/T.js';
import { buildHostilePackage } from '../daml/hostilePackage.js';
import { createdIn, JsonApiClient } from '../engineApps/JsonApiClient.js';
import { childrenKilledAfterEach, spawnServe, type ServedChild } from '../support/spawnServe.js';

const root = mkdtempSync(join(tmpdir(), 'cc-kill-hostile-'));
const children = childrenKilledAfterEach();
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Served = ServedChild;
const serve = (dir: string): Promise<Served> => spawnServe(['--data-dir', dir], children);

async function killHard(s: Served): Promise<void> {
  const gone = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGKILL');
  await gone;
  children.delete(s.child);
}

/**
 * POSTs a body and resolves once the last byte has left this process (not when the server
 * answers): the moment to pull the plug on a server in the middle of its work.
 */
function sendWithoutWaiting(url: string, path: string, body: Uint8Array | string, contentType: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST', headers: { 'content-type': contentType, 'content-length': Buffer.byteLength(body) } });
    req.on('error', () => undefined); // the server dies under it: expected
    req.on('response', (res) => res.resume().on('error', () => undefined));
    req.end(body, () => resolve());
    req.once('error', reject);
  });
}

/** A valid package of some megabytes (many values and one template), so its upload takes a while. */
function bigPackage(): BuiltPackage {
  const b = new PackageBuilder({ name: 'kill-big', version: '1.0.0' });
  const m = b.module('Big');
  // Texts of hashes: they do not compress, so the DAR is as big as the package.
  const hashes = (i: number) => Array.from({ length: 8 }, (_, k) => createHash('sha256').update(`${i}/${k}`).digest('hex')).join('');
  for (let i = 0; i < 6_000; i++) m.value(`v${i}`, T.text, E.text(hashes(i)));
  const owner = (c: { field(n: string): ReturnType<typeof E.var> }) => E.list(T.party, [c.field('owner')]);
  m.template('Note', { fields: { owner: T.party }, signatories: owner, choices: [] });
  return b.build();
}

/** Every package id the server lists, and whether `id` is vetted. */
async function packageState(api: JsonApiClient, id: string): Promise<{ listed: boolean; vetted: boolean }> {
  const list = (await api.ok('GET', '/v2/packages')) as { packageIds: string[] };
  const vetting = (await api.ok('POST', '/v2/package-vetting/list', { packageMetadataFilter: { packageIds: [id] } })) as { vettedPackages: { packages: { packageId: string }[] }[] };
  return { listed: list.packageIds.includes(id), vetted: vetting.vettedPackages.some((v) => v.packages.some((p) => p.packageId === id)) };
}

describe('kill -9 in the middle of hostile work on --data-dir: nothing lost, nothing half-recorded', () => {
  it('acknowledged work survives, refused work left no trace, the cut upload is all or nothing, later work succeeds', async () => {
    const dir = join(root, 'ledger');
    const hostile = buildHostilePackage('kill-hostile');
    const big = bigPackage();
    const bigDar = big.dar();
    expect(bigDar.length).toBeGreaterThan(1_000_000);

    const first = await serve(dir);
    let api = await new JsonApiClient(first.url).connect();
    await api.uploadDar(hostile.dar());
    const owner = await api.party('owner');
    const bombId = `${hostile.id}:Hostile:Bomb`;
    const [bomb] = createdIn(await api.must([owner], [{ CreateCommand: { templateId: bombId, createArguments: { owner, depth: '3' } } }]));
    const acknowledged = await api.ledgerEnd();

    // Refused: a DAR that is not a zip, a command past its allocation budget, one past the nesting limit.
    expect((await api.send('POST', '/v2/dars', new TextEncoder().encode('not a zip'), 'application/octet-stream')).status).toBe(400);
    const exercise = (choice: string, choiceArgument: Record<string, unknown>) =>
      api.submit([owner], [{ ExerciseCommand: { templateId: bombId, contractId: bomb!.contractId, choice, choiceArgument } }]);
    expect((await exercise('Huge', { n: '27' })).status).toBe(409);
    expect((await exercise('Nest', { n: '200' })).status).toBeGreaterThanOrEqual(400);
    expect(await api.ledgerEnd()).toBe(acknowledged);

    // In flight when the plug is pulled: a looping command and a large valid upload.
    const loop = JSON.stringify({
      commands: [{ ExerciseCommand: { templateId: bombId, contractId: bomb!.contractId, choice: 'Loop', choiceArgument: {} } }],
      commandId: 'kill-loop', userId: 'participant_admin', actAs: [owner],
    });
    await sendWithoutWaiting(first.url, '/v2/commands/submit-and-wait', loop, 'application/json');
    await sendWithoutWaiting(first.url, '/v2/dars', bigDar, 'application/octet-stream');
    await killHard(first);

    const second = await serve(dir);
    api = await new JsonApiClient(second.url).connect();
    // Acknowledged work is there.
    expect(await api.ledgerEnd()).toBeGreaterThanOrEqual(acknowledged);
    expect((await api.byTemplate(owner, bombId)).map((c) => c.contractId)).toEqual([bomb!.contractId]);
    // The looping command committed nothing.
    const updates = (await api.ok('POST', '/v2/updates', {
      beginExclusive: acknowledged,
      endInclusive: await api.ledgerEnd(),
      updateFormat: { includeTransactions: { eventFormat: { filtersByParty: { [owner]: {} }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } },
    })) as unknown[];
    expect(JSON.stringify(updates)).not.toContain('"Loop"');
    // The cut upload is all or nothing: listed and vetted together, or neither.
    const cut = await packageState(api, big.id);
    expect(cut.vetted).toBe(cut.listed);
    // Later uploads (the cut one again included) and commands on them work.
    await api.uploadDar(bigDar);
    expect(await packageState(api, big.id)).toEqual({ listed: true, vetted: true });
    const note = await api.must([owner], [{ CreateCommand: { templateId: `${big.id}:Big:Note`, createArguments: { owner } } }]);
    expect(createdIn(note)).toHaveLength(1);
    await killHard(second);

    // And once more after a clean restart of what the second life wrote.
    const third = await serve(dir);
    api = await new JsonApiClient(third.url).connect();
    expect(await packageState(api, big.id)).toEqual({ listed: true, vetted: true });
    expect(await api.byTemplate(owner, `${big.id}:Big:Note`)).toHaveLength(1);
  }, 300_000); // two serve children, a 1.9 MB upload and a kill: seconds idle, minutes on a loaded machine
});
