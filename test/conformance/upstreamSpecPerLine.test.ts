import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../../conformance/src/cli/run.js';
import type { Report } from '../../conformance/src/report/model.js';
import type { CantonVersion } from '../../conformance/src/schema/cantonVersions.js';
import { loadSpec } from '../../conformance/src/schema/index.js';
import { routesOf } from '../../reference-server/src/http/api/cantonVersion.js';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { routeMatcherOf } from '../../reference-server/src/http/api/createDispatcher.js';
import { ledgerApiRoutes } from '../../reference-server/src/http/api/routes/routeTable.js';
import { startReferenceServer } from '../../reference-server/src/startReferenceServer.js';

/**
 * `run --spec <upstream document>` against the reference serving that document's line: every
 * answer of the ledger checks validates against upstream's own document (no schema violation), and
 * no request to an operation the document has meets a 404 for want of a route.
 */
const upstreamDir = join(import.meta.dirname, '..', '..', '..', 'shared', 'upstream', 'canton-json-api-v2');
const DOCUMENTS: readonly (readonly [string, CantonVersion])[] = [
  ['openapi.3.4.yaml', '3.4'],
  ['openapi.3.5.yaml', '3.5'],
  ['openapi.3.5.10.yaml', '3.5'],
  ['openapi.main-3.6.0-SNAPSHOT.yaml', '3.6'],
];

async function runWithSpec(url: string, spec: string): Promise<{ code: number; report: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-upstream-'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const code = await run(['--target', url, '--profile', 'reference', '--spec', spec, '--only', 'ledger', '--report-dir', dir, '--quiet', '--seed', '7', '--runs', '2']);
    return { code, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report };
  } finally {
    log.mockRestore();
    err.mockRestore();
  }
}

describe.skipIf(!existsSync(upstreamDir))('run --spec with each upstream ledger document, on the reference serving its line (needs ../shared/upstream)', () => {
  for (const [file, line] of DOCUMENTS) {
    it(`${file} on --canton-version ${line}: no schema violation, no 404 for an operation the document has`, async () => {
      const requests: string[] = [];
      const server = await startReferenceServer({ port: 0, host: '127.0.0.1', fixtures: undefined, cantonVersion: line, log: silentLogger, requestLog: (l) => requests.push(l) });
      try {
        const spec = join(upstreamDir, file);
        const { report } = await runWithSpec(server.url, spec);
        expect(report.canton?.line).toBe(line);
        const bad = (c: Report['checks'][number]) => c.status === 'fail' || c.status === 'error';
        expect(report.checks.filter((c) => c.id.includes('.schema.') && bad(c)).map((c) => `${c.id}: ${c.message}`)).toEqual([]);
        expect(report.checks.filter(bad).map((c) => `${c.id}: ${c.message}`)).toEqual([]);
        expect(report.checks.filter((c) => c.status === 'pass').length).toBeGreaterThan(100);
        // A 404 that is the route missing: upstream's document has the operation, the served line has no route for it.
        const upstream = loadSpec(spec);
        const served = routeMatcherOf(routesOf(ledgerApiRoutes, line));
        const missing = requests.flatMap((l) => {
          const [, method, path, status] = l.split(' ');
          if (status !== '404' || method === undefined || path === undefined) return [];
          const bare = path.split('?')[0] as string;
          return upstream.match(method.toLowerCase() as 'get', bare) !== undefined && served(method, bare).kind !== 'match' ? [`${method} ${bare}`] : [];
        });
        expect(missing).toEqual([]);
        expect(requests.length).toBeGreaterThan(200);
      } finally {
        await server.close();
      }
    }, 600_000);
  }
});
