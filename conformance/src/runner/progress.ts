import type { CheckDefinition } from '../checks/types.js';
import type { CheckResult } from '../report/model.js';

/** Feedback while checks run. */
export interface Progress {
  start(check: CheckDefinition): void;
  finish(result: CheckResult): void;
  done(): void;
}

/**
 * On a terminal: one line rewritten in place (which check, how many left, failures so far). In CI
 * or when piped: nothing per check; the command prints its one-line summary at the end.
 */
export function createProgress(total: number, stream: NodeJS.WriteStream = process.stderr, mode: 'auto' | 'tty' | 'quiet' = 'auto'): Progress {
  const tty = mode === 'tty' || (mode === 'auto' && stream.isTTY === true && !process.env.CI);
  if (!tty) return { start: () => undefined, finish: () => undefined, done: () => undefined };
  let finished = 0;
  let failed = 0;
  const running = new Set<string>();
  const width = () => Math.max(40, (stream.columns ?? 100) - 1);
  const draw = () => {
    const current = [...running].at(-1) ?? '';
    const line = `[${finished}/${total}] ${total - finished} left, ${failed} failed  ${current}`;
    stream.write(`\r\x1b[2K${line.slice(0, width())}`);
  };
  return {
    start(check) {
      running.add(check.id);
      draw();
    },
    finish(result) {
      running.delete(result.id);
      finished++;
      if (result.status === 'fail' || result.status === 'error') {
        failed++;
        stream.write(`\r\x1b[2K${result.status.toUpperCase()} ${result.id}: ${(result.message ?? '').split('\n')[0]!.slice(0, width() - result.id.length - 8)}\n`);
      }
      draw();
    },
    done() {
      stream.write('\r\x1b[2K');
    },
  };
}
