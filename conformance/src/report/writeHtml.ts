import { resultsChart, STATUS_COLOURS, timingsChart } from './charts.js';
import { escapeHtml as h } from './escape.js';
import { ranLine } from './gate.js';
import { stoppedByPreflight } from './preflightReport.js';
import type { CheckResult, Evidence, Report } from './model.js';
import { isUnexpected, STATUS_RANK, summarize } from './model.js';

/**
 * report.html: one self-contained page (inline CSS, SVG and a few lines of script; no external
 * assets), the verdict first, then per group and per operation, then every check; a check's
 * details (message, request, curl, response, seed, counterexample) open with a click. Everything
 * the target sent is escaped: a hostile target cannot inject markup into the page.
 */
export function renderHtml(report: Report): string {
  const s = report.summary;
  const verdict = report.unreachable ? 'UNREACHABLE' : stoppedByPreflight(report) ? 'NOT STARTED' : report.stopped ? (report.stopped.reason === 'interrupted' ? 'INTERRUPTED' : 'CONFIGURATION ERROR') : report.verdict === 'pass' ? 'PASS' : 'FAIL';
  const ordered = [...report.checks].sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${verdict}: canton-conformance report for ${h(report.target)}</title>
<style>${CSS}</style>
</head>
<body>
<header class="banner ${report.verdict}">
  <h1><span class="verdict" data-testid="verdict">${verdict}</span> canton-conformance report</h1>
  <p class="meta">Target <code>${h(report.target)}</code> · profile <code>${h(report.profile)}</code> · seed <code>${report.seed}</code> · started ${h(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s${report.wallTimeMs !== undefined ? ` (${(report.wallTimeMs / 1000).toFixed(1)} s in all)` : ''}${report.shard ? ` · shard ${report.shard.index}/${report.shard.total}` : ''}${report.mergedFrom ? ` · merged from ${report.mergedFrom} reports` : ''}${report.preflight?.cantonVersion ? ` · Canton <code>${h(report.preflight.cantonVersion)}</code>` : ''}${report.canton ? ` · judged as Canton <code>${h(report.canton.line)}</code>` : ''}${report.splice ? ` · Scan judged as Splice <code>${h(report.splice.release)}</code>` : ''} · ${h(report.tool.name)} ${h(report.tool.version)}</p>
  <ul class="counts">
    ${count('pass', s.passed, 'passed')}${count('fail', s.failed, 'failed')}${count('error', s.errored, 'errored')}${count('warn', s.warned, 'warned')}${count('skip', s.skipped, 'skipped')}
  </ul>
  <p class="ran" data-testid="ran">The run ${h(ranLine(report))}.</p>
  <p class="why" data-testid="why">${whyVerdict(report)}</p>
</header>
<main>
${report.warnings.length > 0 ? `<section class="warnings"><h2>Warnings</h2><ul>${report.warnings.map((w) => `<li>${h(w)}</li>`).join('')}</ul></section>` : ''}
<section class="charts">
  <figure><figcaption>Results per group</figcaption>${resultsChart(report)}</figure>
  <figure><figcaption>Response times per operation (p50 / p95)</figcaption>${timingsChart(report.timings)}</figure>
</section>
<section><h2>Verdict per group</h2>${groupTable(report)}</section>
<section><h2>Verdict per operation</h2>${operationTable(report)}</section>
${coverageSection(report)}
<section id="checks"><h2>Checks</h2>
  <p class="filter">Show: ${['all', 'problems', 'pass', 'skip'].map((f, i) => `<button type="button" data-filter="${f}"${i === 0 ? ' aria-pressed="true"' : ''}>${f}</button>`).join(' ')}</p>
  ${ordered.map(checkBlock).join('\n')}
</section>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

const rank = (c: CheckResult) => (isUnexpected(c) ? -1 : STATUS_RANK[c.status]);

function count(status: keyof typeof STATUS_COLOURS, n: number, label: string): string {
  return `<li class="c-${status}"><b>${n}</b> ${label}</li>`;
}

const HEADER_LINKS = 10;

/** The verdict's reason as HTML: the unexpected failures named and linked to their checks. */
function whyVerdict(r: Report): string {
  if (r.unreachable) return h(`The target did not answer (${r.unreachable.url}: ${r.unreachable.reason}), so no check ran.`);
  if (stoppedByPreflight(r)) return h(`The preflight found that the target cannot be certified as configured, so no check ran: ${(r.preflight?.problems ?? []).join('; ')}`);
  if (r.stopped?.reason === 'configuration-error') return h(`The run did not start: ${r.stopped.message}`);
  if (r.stopped) return h(`${r.stopped.message}: below is what ran until then.`);
  const unexpected = r.checks.filter(isUnexpected);
  // The gate (--min-ran, --fail-on-skip) fails a run that may have no failing check: say so first.
  const gate = (r.gate?.failures ?? []).map((f) => h(`The gate fails the run: ${f}. `)).join('');
  if (unexpected.length === 0) {
    if (gate !== '') return gate;
    const expected = r.checks.filter((c) => c.baseline === 'expected').length;
    return h(`No unexpected failure${expected > 0 ? ` (${expected} expected by the baseline)` : ''}.`);
  }
  const stale = unexpected.filter((c) => c.baseline === 'stale').length;
  const counts = `${unexpected.length - stale} unexpected failure(s)${stale > 0 ? ` and ${stale} stale baseline entr${stale === 1 ? 'y' : 'ies'}` : ''}`;
  const links = unexpected.slice(0, HEADER_LINKS).map((c) => `<a href="#${anchor(c.id)}">${h(c.id)}</a>${c.baseline === 'stale' ? ' (stale)' : ''}`);
  const more = unexpected.length > HEADER_LINKS ? `, and ${unexpected.length - HEADER_LINKS} more below` : '';
  return `${gate}${h(counts)}: ${links.join(', ')}${more}.`;
}

function verdictOf(checks: readonly CheckResult[]): { label: string; cls: string } {
  if (checks.some(isUnexpected)) return { label: 'FAIL', cls: 'fail' };
  if (checks.some((c) => c.baseline === 'expected')) return { label: 'PASS (expected failures)', cls: 'warn' };
  if (checks.some((c) => c.status === 'warn')) return { label: 'PASS (warnings)', cls: 'warn' };
  if (checks.every((c) => c.status === 'skip')) return { label: 'NOT CHECKED', cls: 'skip' };
  return { label: 'PASS', cls: 'pass' };
}

function groupTable(r: Report): string {
  const groups = [...new Set(r.checks.map((c) => c.group))];
  const rows = groups.map((g) => {
    const checks = r.checks.filter((c) => c.group === g);
    const s = summarize(checks);
    const v = verdictOf(checks);
    return `<tr><td>${h(g)}</td><td><span class="badge ${v.cls}">${v.label}</span></td><td>${s.passed}</td><td>${s.failed}</td><td>${s.errored}</td><td>${s.warned}</td><td>${s.skipped}</td></tr>`;
  });
  return `<table class="grid"><thead><tr><th>Group</th><th>Verdict</th><th>Passed</th><th>Failed</th><th>Errored</th><th>Warned</th><th>Skipped</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function operationTable(r: Report): string {
  const ops = [...new Set(r.checks.map((c) => `${c.group}\u0000${c.operationId}`))].sort();
  const rows = ops.map((key) => {
    const [g, op] = key.split('\u0000') as [string, string];
    const checks = r.checks.filter((c) => c.group === g && c.operationId === op);
    const v = verdictOf(checks);
    const bad = checks.filter(isUnexpected).map((c) => `<a href="#${anchor(c.id)}">${h(c.id)}</a>`);
    return `<tr><td>${h(g)}</td><td><code>${h(op)}</code></td><td><span class="badge ${v.cls}">${v.label}</span></td><td>${checks.length}</td><td>${bad.join('<br>')}</td></tr>`;
  });
  return `<table class="grid"><thead><tr><th>Group</th><th>Operation</th><th>Verdict</th><th>Checks</th><th>Failing</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Traceability: operations of specs/ no behaviour check covers (or none ran), rules no check enforces. */
function coverageSection(r: Report): string {
  const c = r.coverage;
  if (!c) return '';
  const item = (op: string) => {
    const o = c.operations.find((x) => x.operationId === op);
    return `<li><code>${h(o ? `${o.method} ${o.path}` : op)}</code> <span class="muted">(${h(op)})</span></li>`;
  };
  const parts = [`<p>${c.operations.length - c.uncovered.length} of ${c.operations.length} operations of our specs have a behaviour check; ${c.operations.length - (c.notChecked?.length ?? 0)} were checked in this run. ${c.rules.length - c.uncheckedRules.length} of ${c.rules.length} documented rules have a check.</p>`];
  if (c.uncovered.length > 0) parts.push(`<h3>Operations without a behaviour check</h3><ul>${c.uncovered.map(item).join('')}</ul>`);
  const notChecked = (c.notChecked ?? []).filter((op) => !c.uncovered.includes(op));
  if (notChecked.length > 0) parts.push(`<h3>Operations not checked in this run</h3><p class="muted">Their checks were skipped (see each check's reason) or deselected.</p><ul>${notChecked.map(item).join('')}</ul>`);
  const gaps = c.rules.filter((x) => x.checks.length === 0);
  if (gaps.length > 0) parts.push(`<h3>Documented rules without a check</h3><ul>${gaps.map((x) => `<li>${h(x.rule)} <span class="muted">(${h(x.specRef)}${x.gap ? `; ${h(x.gap)}` : ''})</span></li>`).join('')}</ul>`);
  return `<section id="coverage"><h2>Coverage</h2>${parts.join('\n')}</section>`;
}

const anchor = (id: string) => `check-${id.replace(/[^A-Za-z0-9_.-]/g, '_')}`;

function checkBlock(c: CheckResult): string {
  const shownStatus = c.baseline === 'stale' ? 'stale' : c.baseline === 'expected' ? `${c.status} (expected)` : c.status;
  const problem = isUnexpected(c) || c.status === 'warn' || c.baseline === 'expected';
  const rows: string[] = [];
  if (c.message) rows.push(`<p class="message">${h(c.baseline === 'stale' ? `Stale baseline entry: this check passes now; remove it from the baseline.` : c.message)}</p>`);
  rows.push(
    `<dl><dt>Rule</dt><dd>${h(c.specRef)}</dd><dt>Operation</dt><dd><code>${h(c.operationId)}</code></dd><dt>Kind</dt><dd>${h(c.kind)}</dd><dt>Duration</dt><dd>${c.durationMs} ms, ${c.requests} request(s)</dd>` +
      (c.seed !== undefined ? `<dt>Seed</dt><dd><code>${c.seed}</code></dd>` : '') +
      (c.replay ? `<dt>Replay</dt><dd><code class="replay">${h(c.replay)}</code></dd>` : '') +
      `</dl>`,
  );
  if (c.counterexample) {
    rows.push(`<h4>Shrunk counterexample</h4><pre class="counterexample">${h(c.counterexample.value)}</pre>`);
    const facts = [c.counterexample.numRuns !== undefined ? `${c.counterexample.numRuns} run(s)` : '', c.counterexample.numShrinks !== undefined ? `${c.counterexample.numShrinks} shrink(s)` : '', c.counterexample.path ? `path ${c.counterexample.path}` : ''].filter(Boolean);
    if (facts.length > 0) rows.push(`<p class="muted">${h(facts.join(' · '))}</p>`);
  }
  if (c.evidence) rows.push(evidenceBlock(c.evidence));
  return `<details class="check" id="${anchor(c.id)}" data-status="${c.status}" data-problem="${problem}">
<summary><span class="badge ${c.baseline === 'stale' ? 'fail' : c.status}">${h(shownStatus.toUpperCase())}</span> <code class="id">${h(c.id)}</code> <span class="title">${h(c.title)}</span> <span class="level">${c.level}</span></summary>
<div class="body">${rows.join('\n')}</div>
</details>`;
}

function evidenceBlock(e: Evidence): string {
  const req = [`${e.request.method} ${e.request.url}`, ...Object.entries(e.request.headers).map(([k, v]) => `${k}: ${v}`), ...(e.request.body !== undefined ? ['', e.request.body] : [])].join('\n');
  const parts = [`<h4>Request</h4><pre class="request">${h(req)}</pre>`, `<h4>curl</h4><pre class="curl">${h(e.curl)}</pre>`];
  if (e.response) {
    const res = [`HTTP ${e.response.status}`, ...Object.entries(e.response.headers).map(([k, v]) => `${k}: ${v}`), '', prettyBody(e.response.body, e.response.contentType)].join('\n');
    parts.push(`<h4>Response <span class="muted">(${e.durationMs} ms${e.response.truncated ? ', body clipped' : ''})</span></h4><pre class="response">${h(res)}</pre>`);
  }
  if (e.error) parts.push(`<h4>No response</h4><pre class="response">${h(`${e.error.kind}: ${e.error.message}`)}</pre>`);
  return parts.join('\n');
}

function prettyBody(body: string, contentType: string): string {
  if (!/json/.test(contentType)) return body;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

const CSS = `
:root{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1b1b1b;background:#fafafa}
body{margin:0}main{max-width:1100px;margin:0 auto;padding:0 16px 48px}
.banner{padding:18px 24px;color:#fff}.banner.pass{background:${STATUS_COLOURS.pass}}.banner.fail{background:${STATUS_COLOURS.fail}}
.banner h1{margin:0 0 6px;font-size:1.5rem}.verdict{display:inline-block;padding:2px 10px;margin-right:8px;border:2px solid #fff;border-radius:6px}
.banner .meta,.banner .why{margin:4px 0;opacity:.95}.banner code,.banner a{color:#fff}
.counts{list-style:none;padding:0;margin:8px 0;display:flex;gap:16px;flex-wrap:wrap}.counts li{background:rgba(255,255,255,.15);padding:3px 10px;border-radius:4px}
h2{margin-top:28px;border-bottom:1px solid #ddd;padding-bottom:4px}
.charts{display:flex;flex-wrap:wrap;gap:24px;margin-top:16px}.charts figure{margin:0;background:#fff;padding:10px;border:1px solid #e0e0e0;border-radius:6px;overflow-x:auto;max-width:100%}
figcaption{font-weight:600;margin-bottom:6px}svg text{font-size:12px;dominant-baseline:middle}svg .in{fill:#fff;text-anchor:middle}svg .r{text-anchor:end}svg .lg,svg .v{fill:#333}
table.grid{border-collapse:collapse;width:100%;background:#fff}.grid th,.grid td{border:1px solid #e0e0e0;padding:4px 8px;text-align:left;vertical-align:top}
.badge{display:inline-block;min-width:44px;text-align:center;padding:1px 6px;border-radius:4px;color:#fff;font-size:.8rem;font-weight:600}
.badge.pass{background:${STATUS_COLOURS.pass}}.badge.fail{background:${STATUS_COLOURS.fail}}.badge.error{background:${STATUS_COLOURS.error}}.badge.warn{background:${STATUS_COLOURS.warn}}.badge.skip{background:${STATUS_COLOURS.skip}}
details.check{background:#fff;border:1px solid #e0e0e0;border-radius:6px;margin:6px 0}details.check>summary{cursor:pointer;padding:8px 10px;list-style-position:inside}
details.check[open]>summary{border-bottom:1px solid #eee}.check .body{padding:8px 14px}.check .level{float:right;color:#666;font-size:.8rem}
.message{font-weight:600;white-space:pre-wrap}dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}dt{color:#666}dd{margin:0}
pre{background:#f4f4f4;border:1px solid #e6e6e6;padding:8px;overflow:auto;max-height:420px;white-space:pre-wrap;word-break:break-all}
.muted{color:#777;font-weight:normal}.warnings{background:#fff3e0;border:1px solid #ffcc80;padding:4px 16px;margin-top:16px;border-radius:6px}
.filter button{margin-right:4px}.filter button[aria-pressed=true]{font-weight:700}
`;

const SCRIPT = `
function openCheck(hash){
  var d=hash&&hash.indexOf('#check-')===0?document.getElementById(decodeURIComponent(hash.slice(1))):null;
  if(!d)return;
  d.hidden=false;d.open=true;d.scrollIntoView({block:'start'});
}
document.addEventListener('click',function(e){
  var a=e.target&&e.target.closest?e.target.closest('a[href^="#check-"]'):null;
  if(!a)return;
  e.preventDefault();history.replaceState(null,'',a.getAttribute('href'));openCheck(a.getAttribute('href'));
});
window.addEventListener('hashchange',function(){openCheck(location.hash)});
openCheck(location.hash);
document.querySelectorAll('[data-filter]').forEach(function(b){b.addEventListener('click',function(){
  var f=b.getAttribute('data-filter');
  document.querySelectorAll('[data-filter]').forEach(function(x){x.setAttribute('aria-pressed',String(x===b))});
  document.querySelectorAll('details.check').forEach(function(d){
    var s=d.getAttribute('data-status'),p=d.getAttribute('data-problem')==='true';
    d.hidden=!(f==='all'||(f==='problems'&&p)||f===s);
  });
});});
`;
