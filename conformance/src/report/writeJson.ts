import type { Report } from './model.js';

/** report.json: the report as is (valid against specs/report.schema.json). */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
