import { readFileSync } from 'node:fs';
import { closest } from '../runner/select.js';
import type { CheckResult } from './model.js';

/**
 * A baseline of expected failures. Exit-code table (per check in the run):
 *
 * | result        | in baseline            | not in baseline |
 * |---------------|------------------------|-----------------|
 * | fail / error  | expected  -> exit 0    | unexpected -> 1 |
 * | pass          | stale     -> exit 1    | ok         -> 0 |
 * | warn / skip   | no effect              | no effect       |
 *
 * A baseline entry for a check that did not run (deselected, other shard) has no effect.
 */
export interface Baseline {
  readonly source: string;
  /** Check id -> reason (may be empty). */
  readonly entries: ReadonlyMap<string, string>;
}

export class BaselineError extends Error {
  override readonly name = 'BaselineError';
}

/**
 * Reads a baseline: a previous report.json (its failed and errored checks), a JSON array of ids, or
 * a text file with one id per line (`# comment`, and `id  # reason`).
 */
export function loadBaseline(file: string, knownIds: readonly string[]): Baseline {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new BaselineError(`cannot read baseline ${file}: ${(e as Error).message}`);
  }
  return parseBaseline(text, file, knownIds);
}

export function parseBaseline(text: string, source: string, knownIds: readonly string[]): Baseline {
  const known = new Set(knownIds);
  const entries = new Map<string, string>();
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let doc: unknown;
    try {
      doc = JSON.parse(trimmed);
    } catch (e) {
      throw new BaselineError(`baseline ${source} looks like JSON but does not parse: ${(e as Error).message}`);
    }
    if (Array.isArray(doc)) {
      doc.forEach((id, i) => {
        if (typeof id !== 'string') throw new BaselineError(`baseline ${source}: entry ${i} is not a string`);
        entries.set(checkKnown(id, known, `${source}: entry ${i}`), '');
      });
    } else if (typeof doc === 'object' && doc !== null && Array.isArray((doc as { checks?: unknown }).checks)) {
      // A previous report: what failed then is expected now. Ids that no longer exist are dropped
      // (the catalogue moved on), not an error: the report was not written by hand.
      for (const c of (doc as { checks: Array<Partial<CheckResult>> }).checks) {
        if ((c.status === 'fail' || c.status === 'error') && typeof c.id === 'string' && known.has(c.id)) entries.set(c.id, c.message ?? '');
      }
    } else {
      throw new BaselineError(`baseline ${source}: expected a report.json, a JSON array of check ids, or one id per line`);
    }
    return { source, entries };
  }
  text.split(/\r?\n/).forEach((line, i) => {
    const content = line.replace(/(^|\s)#.*$/, '').trim();
    if (content === '') return;
    const hash = line.indexOf('#');
    const [id, ...rest] = content.split(/\s+/);
    const reason = hash >= 0 ? line.slice(hash + 1).trim() : rest.join(' ');
    entries.set(checkKnown(id!, known, line.trim() === id ? `${source}:${i + 1}` : `${source}:${i + 1} ('${line.trim()}')`), reason);
  });
  return { source, entries };
}

function checkKnown(id: string, known: ReadonlySet<string>, where: string): string {
  if (known.has(id)) return id;
  const close = closest(id, known);
  throw new BaselineError(`${where}: '${id}' is not a check id${close ? ` (did you mean '${close}'?)` : ''}`);
}

export interface BaselineOutcome {
  readonly checks: CheckResult[];
  readonly expected: string[];
  readonly unexpected: string[];
  readonly stale: string[];
  readonly exitCode: 0 | 1;
}

/** Marks each result and computes the exit code (table above). Without a baseline, every fail/error is unexpected. */
export function applyBaseline(results: readonly CheckResult[], baseline: Baseline | undefined): BaselineOutcome {
  const expected: string[] = [];
  const unexpected: string[] = [];
  const stale: string[] = [];
  const checks = results.map((r): CheckResult => {
    const { baseline: _old, ...rest } = r;
    const listed = baseline?.entries.has(r.id) === true;
    const failed = r.status === 'fail' || r.status === 'error';
    if (failed && listed) {
      expected.push(r.id);
      return { ...rest, baseline: 'expected' };
    }
    if (failed) {
      unexpected.push(r.id);
      return baseline ? { ...rest, baseline: 'unexpected' } : rest;
    }
    if (r.status === 'pass' && listed) {
      stale.push(r.id);
      return { ...rest, baseline: 'stale' };
    }
    return rest;
  });
  return { checks, expected, unexpected, stale, exitCode: unexpected.length > 0 || stale.length > 0 ? 1 : 0 };
}
