import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirs } from '../fs/makeDirs.js';
import type { Report } from './model.js';
import { renderHtml } from './writeHtml.js';
import { renderJson } from './writeJson.js';
import { renderJunit } from './writeJunit.js';
import { renderMarkdown } from './writeMarkdown.js';

export const REPORT_FILES = { json: 'report.json', junit: 'junit.xml', markdown: 'summary.md', html: 'report.html' } as const;

/** Writes the four report files into `dir` (created if needed); returns their paths. */
export async function writeReports(report: Report, dir: string): Promise<Record<keyof typeof REPORT_FILES, string>> {
  makeDirs(dir);
  const paths = {
    json: join(dir, REPORT_FILES.json),
    junit: join(dir, REPORT_FILES.junit),
    markdown: join(dir, REPORT_FILES.markdown),
    html: join(dir, REPORT_FILES.html),
  };
  await Promise.all([
    writeFile(paths.json, renderJson(report)),
    writeFile(paths.junit, renderJunit(report)),
    writeFile(paths.markdown, renderMarkdown(report)),
    writeFile(paths.html, renderHtml(report)),
  ]);
  return paths;
}
