import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../../conformance/src/cli/run.js';
import type { Report } from '../../conformance/src/report/model.js';
import { loadSpec, packageRoot, readDocument, SPEC_QUIRKS, validateResponse } from '../../conformance/src/schema/index.js';

/**
 * `--spec <Canton's own document>`: the documented quirks of that document are tolerated (one list,
 * conformance/src/schema/specQuirks.ts), and nothing else is. Upstream's documents are beside the
 * repository on project machines and in CI; skipped, saying so, in a user's clone.
 */
const upstream = join(packageRoot(), '..', 'shared', 'upstream', 'canton-json-api-v2', 'openapi.3.5.yaml');
const hasUpstream = existsSync(upstream);

const error = (extra: Record<string, unknown> = {}) => ({
  code: 'INVALID_ARGUMENT',
  cause: 'The submitted request has invalid arguments: ...',
  correlationId: null,
  traceId: null,
  context: { participant: 'participant1' },
  resources: [],
  errorCategory: 8,
  grpcCodeValue: 3,
  retryInfo: null,
  definiteAnswer: null,
  ...extra,
});
const users400 = (contentType: string, body: unknown) => validateResponse({ spec: upstream, method: 'get', path: '/v2/users/alice', status: 400, contentType, body });

describe.skipIf(!hasUpstream)("--spec with Canton's 3.5 document (needs ../shared/upstream)", () => {
  it('every quirk in the list has an id and a reason', () => {
    expect(SPEC_QUIRKS.map((q) => q.id)).toEqual(['canton-json-400-bodies', 'canton-null-error-members']);
    for (const q of SPEC_QUIRKS) expect(q.reason.length).toBeGreaterThan(80);
  });

  it('the document has both quirks as published, and loading it tolerates them', () => {
    const raw = readDocument(upstream) as { paths: Record<string, Record<string, { responses: Record<string, { content?: object }> }>> };
    expect(Object.keys(raw.paths['/v2/users/{user-id}']!['get']!.responses['400']!.content!)).toEqual(['text/plain']);
    const tolerated = loadSpec(upstream).tolerated;
    expect(tolerated.map((q) => q.id)).toEqual(['canton-json-400-bodies', 'canton-null-error-members']);
    expect(tolerated[0]!.places).toContain('GET /v2/users/{user-id}');
    expect(tolerated[1]!.places).toEqual(expect.arrayContaining(['JsCantonError.correlationId', 'JsCantonError.retryInfo', 'JsCantonError.definiteAnswer']));
    expect(tolerated[1]!.places).not.toContain('JsCantonError.code');
    // Our own documents declare what participants send: nothing to tolerate.
    expect(loadSpec('ledger').tolerated).toEqual([]);
  });

  it('accepts what participants send: a JSON JsCantonError 400 with explicit nulls, and the text/plain 400', () => {
    expect(users400('application/json', error())).toMatchObject({ ok: true });
    expect(users400('text/plain; charset=UTF-8', 'Invalid value for: body')).toMatchObject({ ok: true });
    expect(validateResponse({ spec: upstream, method: 'get', path: '/v2/users/alice', status: 404, contentType: 'application/json', body: error({ code: 'USER_NOT_FOUND' }) })).toMatchObject({ ok: true });
  });

  it('and nothing more: another JSON body, a null where the document requires a value, a wrong type', () => {
    expect(users400('application/json', { error: 'bad request' }).ok).toBe(false);
    expect(users400('application/json', error({ code: null })).ok).toBe(false);
    expect(users400('application/json', error({ errorCategory: null })).ok).toBe(false);
    expect(users400('application/json', error({ definiteAnswer: 'false' })).ok).toBe(false);
    expect(users400('application/xml', '<error/>').ok).toBe(false);
  });

  it('certifies the reference server: every ledger check passes, and the report says what was tolerated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-upstream-spec-'));
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    let code: number;
    try {
      code = await run(['--spec', upstream, '--only', 'ledger', '--report-dir', dir, '--quiet', '--seed', '7']);
    } finally {
      log.mockRestore();
    }
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    const failed = report.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => `${c.id}: ${c.message ?? ''}`);
    expect(failed).toEqual([]);
    expect(code).toBe(0);
    expect(report.checks.filter((c) => c.kind === 'schema' && c.status === 'pass').length).toBeGreaterThan(50);
    expect(report.warnings.filter((w) => w.startsWith(`--spec ${upstream}: tolerated`)).map((w) => /quirk (\S+)/.exec(w)?.[1])).toEqual(['canton-json-400-bodies', 'canton-null-error-members']);
  }, 600_000);
});
