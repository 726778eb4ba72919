import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../reference-server/src/http/api/consoleLogger.js';
import { createReferenceServer, type ReferenceServer } from '../../reference-server/src/server.js';
import { loadGoldenCases } from './goldenCase.js';
import { runGoldenStep } from './runGoldenStep.js';

/**
 * The golden black-box corpus: every case under cases/ against GOLDEN_BASE_URL, or, without it,
 * against a reference server started here on a free port. Cases only use the API (setup included),
 * so the same corpus certifies any participant.
 */
const cases = loadGoldenCases(fileURLToPath(new URL('./cases', import.meta.url)));
let baseUrl = process.env['GOLDEN_BASE_URL'] ?? '';
let server: ReferenceServer | undefined;

beforeAll(async () => {
  if (baseUrl !== '') return;
  server = await createReferenceServer({ port: 0, log: silentLogger });
  baseUrl = server.url;
});
afterAll(() => server?.close());

describe('golden corpus', () => {
  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const c of cases) {
    it(`${c.file}: ${c.title}`, async () => {
      // `${unique}` keeps names (users, parties, command ids) fresh on a target that keeps state.
      const vars = new Map<string, unknown>([['unique', randomBytes(6).toString('hex')]]);
      try {
        for (const [i, step] of c.setup.entries()) {
          const outcome = await runGoldenStep(baseUrl, step, vars);
          expect(outcome.failures, `setup step ${i + 1}`).toEqual([]);
        }
        const outcome = await runGoldenStep(baseUrl, { request: c.request, expect: c.expect, ...(c.capture ? { capture: c.capture } : {}) }, vars);
        expect(outcome.failures).toEqual([]);
      } finally {
        for (const request of c.teardown) await runGoldenStep(baseUrl, { request, expect: { status: 200, conforms: false } }, vars);
      }
    });
  }
});
