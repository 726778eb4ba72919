import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../../conformance/src/cli/run.js';
import type { Report } from '../../conformance/src/report/model.js';
import { createProgress } from '../../conformance/src/runner/progress.js';
import { definition, result } from './helpers/fakeReport.js';

/** A stricter "other version" of the version operation: it requires a field ours does not. */
const STRICT = `openapi: 3.1.0
info: { title: stricter ledger, version: 9.9.9 }
paths:
  /v2/version:
    get:
      operationId: getV2Version
      responses:
        '200':
          description: version
          content:
            application/json:
              schema:
                type: object
                required: [version, features, buildHash]
                properties: { version: { type: string }, buildHash: { type: string } }
`;

async function quietRun(args: string[]): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-spec-'));
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    await run([...args, '--report-dir', dir, '--quiet', '--only', 'ledger.version.shape,ledger.schema.get-v2-version,ledger.schema.get-v2-state-ledger-end,ledger.ledger-end.shape']);
  } finally {
    log.mockRestore();
  }
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}

describe('--spec: validate against another version of the specs', () => {
  it('responses are judged by the given document where it describes the path, by ours elsewhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-spec-doc-'));
    writeFileSync(join(dir, 'strict.yaml'), STRICT);
    const ours = await quietRun([]);
    const theirs = await quietRun(['--spec', join(dir, 'strict.yaml')]);
    const status = (r: Report, id: string) => r.checks.find((c) => c.id === id)!;
    expect(status(ours, 'ledger.schema.get-v2-version').status).toBe('pass');
    expect(status(theirs, 'ledger.schema.get-v2-version').status).toBe('fail');
    expect(status(theirs, 'ledger.schema.get-v2-version').message).toMatch(/buildHash/);
    // Not described by the given document: still judged by ours.
    expect(status(theirs, 'ledger.schema.get-v2-state-ledger-end').status).toBe('pass');
  }, 60_000);
});

describe('progress', () => {
  it('on a terminal: one line rewritten in place, failures printed as they happen', () => {
    let out = '';
    const stream = { isTTY: true, columns: 80, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream;
    const ci = process.env.CI;
    delete process.env.CI;
    try {
      const p = createProgress(2, stream);
      p.start(definition('ledger.a.one'));
      p.finish(result('ledger.a.one', 'fail', { message: 'broken here' }));
      p.start(definition('ledger.a.two'));
      p.finish(result('ledger.a.two', 'pass'));
      p.done();
    } finally {
      if (ci !== undefined) process.env.CI = ci;
    }
    expect(out).toContain('[0/2] 2 left, 0 failed  ledger.a.one');
    expect(out).toContain('FAIL ledger.a.one: broken here\n');
    expect(out).toContain('[2/2] 0 left, 1 failed');
  });

  it('in CI or when piped: silent', () => {
    let out = '';
    const stream = { isTTY: false, write: (s: string) => ((out += s), true) } as unknown as NodeJS.WriteStream;
    const p = createProgress(1, stream);
    p.start(definition('ledger.a.one'));
    p.finish(result('ledger.a.one', 'fail'));
    p.done();
    expect(out).toBe('');
  });
});
