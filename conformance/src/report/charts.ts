import { escapeXml } from './escape.js';
import type { OperationTiming, Report } from './model.js';
import { summarize } from './model.js';

export const STATUS_COLOURS = { pass: '#2e7d32', fail: '#c62828', error: '#6a1b9a', warn: '#e65100', skip: '#757575' } as const;
const ORDER = ['pass', 'warn', 'fail', 'error', 'skip'] as const;
const KEY = { pass: 'passed', warn: 'warned', fail: 'failed', error: 'errored', skip: 'skipped' } as const;

/** Inline SVG: one stacked bar of check results per group (no external assets, no script). */
export function resultsChart(report: Report): string {
  const groups = [...new Set(report.checks.map((c) => c.group))];
  const rowH = 28;
  const labelW = 90;
  const barW = 460;
  const h = groups.length * rowH + 34;
  const rows = groups.map((g, i) => {
    const s = summarize(report.checks.filter((c) => c.group === g));
    let x = labelW;
    const y = i * rowH + 4;
    const segs = ORDER.filter((st) => s[KEY[st]] > 0).map((st) => {
      const w = (s[KEY[st]] / s.total) * barW;
      const seg = `<rect x="${x.toFixed(1)}" y="${y}" width="${Math.max(w, 1).toFixed(1)}" height="${rowH - 8}" fill="${STATUS_COLOURS[st]}"><title>${escapeXml(`${g}: ${s[KEY[st]]} ${KEY[st]}`)}</title></rect>` +
        (w > 22 ? `<text x="${(x + w / 2).toFixed(1)}" y="${y + rowH / 2}" class="in">${s[KEY[st]]}</text>` : '');
      x += w;
      return seg;
    });
    return `<text x="0" y="${y + rowH / 2}" class="lbl">${escapeXml(g)} (${s.total})</text>${segs.join('')}`;
  });
  const legend = ORDER.map((st, i) => `<rect x="${labelW + i * 92}" y="${h - 22}" width="12" height="12" fill="${STATUS_COLOURS[st]}"/><text x="${labelW + i * 92 + 16}" y="${h - 12}" class="lg">${KEY[st]}</text>`).join('');
  return `<svg role="img" aria-label="Check results per group" viewBox="0 0 ${labelW + barW + 10} ${h}" width="${labelW + barW + 10}" height="${h}" xmlns="http://www.w3.org/2000/svg">${rows.join('')}${legend}</svg>`;
}

/** Inline SVG: p50 and p95 response time per operation, slowest first (at most `limit`). */
export function timingsChart(timings: readonly OperationTiming[], limit = 16): string {
  const rows = [...timings].sort((a, b) => b.p95Ms - a.p95Ms).slice(0, limit);
  if (rows.length === 0) return '<p class="muted">No responses were timed.</p>';
  // Sized to the longest operationId (about 7 px a character at 12 px), so none is cut at the left.
  const labelW = Math.min(520, Math.max(120, Math.max(...rows.map((r) => r.operationId.length)) * 7 + 12));
  const barW = 340;
  const rowH = 22;
  const max = Math.max(...rows.map((r) => r.p95Ms), 1);
  const h = rows.length * rowH + 30;
  const body = rows.map((r, i) => {
    const y = i * rowH + 2;
    const w95 = (r.p95Ms / max) * barW;
    const w50 = (r.p50Ms / max) * barW;
    return (
      `<text x="${labelW - 6}" y="${y + 13}" class="lbl r">${escapeXml(r.operationId)}</text>` +
      `<rect x="${labelW}" y="${y + 3}" width="${Math.max(w95, 1).toFixed(1)}" height="14" fill="#90caf9"><title>${escapeXml(`${r.operationId}: p95 ${r.p95Ms} ms, ${r.requests} requests`)}</title></rect>` +
      `<rect x="${labelW}" y="${y + 3}" width="${Math.max(w50, 1).toFixed(1)}" height="14" fill="#1565c0"><title>${escapeXml(`${r.operationId}: p50 ${r.p50Ms} ms`)}</title></rect>` +
      `<text x="${labelW + Math.max(w95, 1) + 4}" y="${y + 14}" class="v">${r.p50Ms} / ${r.p95Ms} ms (${r.requests})</text>`
    );
  });
  const legend = `<rect x="${labelW}" y="${h - 20}" width="12" height="12" fill="#1565c0"/><text x="${labelW + 16}" y="${h - 10}" class="lg">p50</text><rect x="${labelW + 60}" y="${h - 20}" width="12" height="12" fill="#90caf9"/><text x="${labelW + 76}" y="${h - 10}" class="lg">p95 (requests)</text>`;
  return `<svg role="img" aria-label="Response times per operation" viewBox="0 0 ${labelW + barW + 150} ${h}" width="${labelW + barW + 150}" height="${h}" xmlns="http://www.w3.org/2000/svg">${body.join('')}${legend}</svg>`;
}
