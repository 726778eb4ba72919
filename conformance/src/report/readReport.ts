import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from './model.js';
import { validateReport } from './validateReport.js';

export class ReportReadError extends Error {
  override readonly name = 'ReportReadError';
}

/** Reads a report.json, given the file or the report directory, and checks it against specs/report.schema.json. */
export function readReport(fileOrDir: string): Report {
  let file = fileOrDir;
  try {
    if (statSync(fileOrDir).isDirectory()) file = join(fileOrDir, 'report.json');
  } catch {
    throw new ReportReadError(`${fileOrDir}: no such file or directory`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ReportReadError(`${file}: not a readable JSON report (${(e as Error).message})`);
  }
  const problems = validateReport(doc);
  if (problems.length > 0) throw new ReportReadError(`${file}: not a canton-conformance report:\n  ${problems.slice(0, 10).join('\n  ')}`);
  return doc as Report;
}
