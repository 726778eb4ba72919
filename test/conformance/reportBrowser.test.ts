import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence } from '../../conformance/src/report/model.js';
import { renderHtml } from '../../conformance/src/report/writeHtml.js';
import { report, result } from './helpers/fakeReport.js';

/**
 * report.html in a real browser (Debian's chromium driven by playwright-core): what a person sees.
 * Skipped, saying why, where /usr/bin/chromium is absent on a developer's machine; in CI (CI=true,
 * where .ci/run installs it) a missing browser fails the run instead of passing silently.
 */
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env['CI'] === 'true') throw new Error(`${CHROMIUM} is missing in CI: .ci/run must install Debian's chromium`);
if (!haveChromium) console.warn(`report.html browser test skipped: ${CHROMIUM} is not installed (apt-get install -y chromium)`);

const evidence: Evidence = {
  request: { method: 'POST', url: 'http://vendor.example:7575/v2/state/active-contracts', headers: { 'content-type': 'application/json' }, body: '{"activeAtOffset":100}' },
  curl: `curl -sS -i -X POST 'http://vendor.example:7575/v2/state/active-contracts' -H 'content-type: application/json' --data-binary '{"activeAtOffset":100}'`,
  response: { status: 200, headers: { 'content-type': 'application/json' }, contentType: 'application/json', body: '[]', truncated: false },
  durationMs: 3.1,
};

const sample = report(
  [
    result('ledger.acs.offset-after-ledger-end', 'fail', { message: 'active contracts at ledger end + 100: expected HTTP 400, got 200: []', evidence, replay: 'canton-conformance run --target http://vendor.example:7575 --only ledger.acs.offset-after-ledger-end --seed 42' }),
    result('registry.accept.unknown-id-404', 'fail', { kind: 'property', seed: 42, counterexample: { value: '"00aa"', path: '1:0', numRuns: 2, numShrinks: 3 }, evidence: { ...evidence, response: { ...evidence.response!, status: 500, body: '<b>boom</b>' } } }),
    ...Array.from({ length: 12 }, (_, i) => result(`ledger.version.pass-${i}`, 'pass')),
    result('scan.earliest-round.legacy-path', 'skip', { message: 'profile does not serve the scan group' }),
  ],
  { target: 'http://vendor.example:7575', verdict: 'fail' },
);

let browser: Browser | undefined;
beforeAll(async () => {
  if (haveChromium) browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
}, 60_000);
afterAll(() => browser?.close());

describe.skipIf(!haveChromium)('report.html in Chromium', () => {
  it('shows the verdict, opens a failure with a click, filters, and draws the charts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-html-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, renderHtml(sample));
    const page = await browser!.newPage({ viewport: { width: 1200, height: 900 } });
    const external: string[] = [];
    page.on('request', (r) => void (r.url().startsWith('file:') ? undefined : external.push(r.url())));
    await page.goto(pathToFileURL(file).href);

    await expect.poll(() => page.getByTestId('verdict').textContent()).toBe('FAIL');
    expect(await page.locator('header .why').textContent()).toMatch(/2 unexpected failure/);
    expect(await page.locator('svg[aria-label="Check results per group"] rect').count()).toBeGreaterThan(3);

    const failure = page.locator('details.check[data-status="fail"]').first();
    const curl = failure.locator('pre.curl');
    expect(await curl.isVisible()).toBe(false);
    await failure.locator('summary').click();
    expect(await curl.isVisible()).toBe(true);
    expect(await curl.textContent()).toContain("curl -sS -i -X POST 'http://vendor.example:7575/v2/state/active-contracts'");
    expect(await failure.locator('.message').textContent()).toContain('expected HTTP 400, got 200');
    expect(await failure.locator('code.replay').textContent()).toContain('--only ledger.acs.offset-after-ledger-end --seed 42');

    const property = page.locator('details.check:has(pre.counterexample)');
    await property.locator('summary').click();
    expect(await property.locator('pre.counterexample').textContent()).toBe('"00aa"');
    // The target's markup is shown as text, not rendered.
    expect(await property.locator('pre.response').textContent()).toContain('<b>boom</b>');
    expect(await page.locator('details.check b:text("boom")').count()).toBe(0);

    await page.getByRole('button', { name: 'problems' }).click();
    expect(await page.locator('details.check[data-status="pass"]').first().isVisible()).toBe(false);
    expect(await failure.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'all' }).click();
    expect(await page.locator('details.check[data-status="pass"]').first().isVisible()).toBe(true);

    // The operation table's "Failing" link opens the check it names (closed until then).
    const target = page.locator('details.check#check-registry\\.accept\\.unknown-id-404');
    await property.locator('summary').click();
    expect(await target.getAttribute('open')).toBeNull();
    await page.locator('table.grid a[href="#check-registry.accept.unknown-id-404"]').click();
    expect(await target.getAttribute('open')).not.toBeNull();
    expect(await target.locator('pre.counterexample').isVisible()).toBe(true);
    // The header names the unexpected failures and links them; a link opens its check.
    const links = page.locator('header .why a');
    expect(await links.allTextContents()).toEqual(['ledger.acs.offset-after-ledger-end', 'registry.accept.unknown-id-404']);
    await failure.locator('summary').click();
    expect(await failure.getAttribute('open')).toBeNull();
    await links.first().click();
    expect(await failure.getAttribute('open')).not.toBeNull();

    expect(external).toEqual([]);
    mkdirSync(ARTIFACTS, { recursive: true });
    await failure.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'report.png'), fullPage: true });
    expect(existsSync(join(ARTIFACTS, 'report.png'))).toBe(true);
    await page.close();
  }, 60_000);
});
