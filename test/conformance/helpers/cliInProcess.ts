import { vi } from 'vitest';
import { main } from '../../../conformance/src/cli/main.js';

/** Runs the CLI in-process; returns exit code and what it printed (console.log, console.error). */
export async function cliInProcess(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const code = await main(argv);
    return { code, out: log.mock.calls.map((c) => c.join(' ')).join('\n'), err: error.mock.calls.map((c) => c.join(' ')).join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}
