import { vi } from 'vitest';
import { main } from '../../../conformance/src/cli/main.js';

export interface Captured {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs `f` with console.log and console.error captured; returns its exit code and what it printed. */
export async function captured(f: () => Promise<number>): Promise<Captured> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const code = await f();
    return { code, out: log.mock.calls.map((c) => c.join(' ')).join('\n'), err: error.mock.calls.map((c) => c.join(' ')).join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

/** Runs the CLI in-process; returns exit code and what it printed (console.log, console.error). */
export const cliInProcess = (...argv: string[]): Promise<Captured> => captured(() => main(argv));
