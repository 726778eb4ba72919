import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCTOR_HELP } from '../../conformance/src/cli/doctor.js';
import { LIST_HELP } from '../../conformance/src/cli/list.js';
import { MOCK_USAGE } from '../../conformance/src/cli/mock.js';
import { REPORT_HELP } from '../../conformance/src/cli/report.js';
import { RUN_HELP } from '../../conformance/src/cli/run.js';
import { SERVE_HELP } from '../../conformance/src/cli/serve.js';
import { TEST_HELP } from '../../conformance/src/cli/test.js';
import { TOKEN_HELP } from '../../conformance/src/cli/token.js';

/**
 * The README's command synopses are the `--help` synopses, word for word (whitespace aside): a
 * flag added to a command must reach the README, and the README must not promise a flag the
 * command does not take.
 */
const HELPS = { serve: SERVE_HELP, run: RUN_HELP, doctor: DOCTOR_HELP, list: LIST_HELP, report: REPORT_HELP, mock: MOCK_USAGE, token: TOKEN_HELP, test: TEST_HELP };
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The synopses of a help text: the `Usage:` block up to its first blank line, one per `canton-conformance` line. */
function helpSynopses(help: string): string[] {
  const lines = help.split('\n');
  const start = lines.findIndex((l) => l.startsWith('Usage:'));
  const block: string[] = [];
  for (const l of lines.slice(start)) {
    if (l.trim() === '') break;
    block.push(l.replace(/^Usage:/, ''));
  }
  const out: string[] = [];
  for (const l of block) {
    if (l.trim().startsWith('canton-conformance ')) out.push(l);
    else if (out.length > 0) out[out.length - 1] += ` ${l}`;
  }
  return out.map(squash);
}

/** Synopses in the README's code blocks: `npx canton-conformance <cmd> ...[` lines and their indented continuations, comments dropped. */
function readmeSynopses(readme: string): string[] {
  const out: string[] = [];
  let inCode = false;
  let open: string | undefined;
  for (const raw of readme.split('\n')) {
    if (raw.startsWith('```')) {
      inCode = !inCode;
      if (open) out.push(open);
      open = undefined;
      continue;
    }
    if (!inCode) continue;
    const line = raw.replace(/\s+#.*$/, '');
    const start = /^(?:npx )?(canton-conformance \w+ .*)$/.exec(line);
    if (start && /[[|]/.test(start[1]!)) {
      if (open) out.push(open);
      open = start[1]!;
    } else if (open && /^\s+[[-]/.test(line)) {
      open += ` ${line}`;
    } else {
      if (open) out.push(open);
      open = undefined;
    }
  }
  return out.map(squash);
}

describe('README synopses equal --help', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const inReadme = readmeSynopses(readme);
  const fromHelp = Object.values(HELPS).flatMap(helpSynopses);

  it.each(Object.entries(HELPS))('%s: every synopsis of --help is in the README', (command, help) => {
    const synopses = helpSynopses(help);
    expect(synopses.length, `${command} --help has a Usage: synopsis`).toBeGreaterThan(0);
    for (const s of synopses) expect(inReadme, `README lacks the synopsis of ${command} --help`).toContain(s);
  });

  it('every synopsis in the README is one of --help (no drifted or invented flags)', () => {
    expect(inReadme.filter((s) => !fromHelp.includes(s))).toEqual([]);
  });
});
