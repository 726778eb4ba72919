import { CustomLogAdapter } from '@canton-network/wallet-sdk';
import { afterAll, afterEach, beforeAll } from 'vitest';

/**
 * Keeps the wallet SDK's logs out of a passing `npm test` and shows them for a failing test.
 *
 * Two loggers speak: the SDK's own (its `logAdapter` option, given `sdkLogAdapter` below) and the
 * `pino({ name: 'LedgerProvider' })` that @canton-network/core-provider-ledger builds inside
 * `SDK.create` with no option to reach it. That pino writes straight to fd 1 (sonic-boom), past
 * vitest's console capture, and pino reads no level from the environment; vi.mock cannot reach it
 * either, since the SDK is loaded by Node, not vitest. What pino does document is that when
 * `process.stdout.write` has been replaced before a logger is created, it writes through
 * `process.stdout` instead of the fd. So, for the files that call this, stdout writes are held
 * while the SDK runs: the SDK behaves exactly as a wallet sees it, and the held lines are printed
 * (to stderr, after the test's name) only when a test fails.
 */
const held: string[] = [];

export const sdkLogAdapter = new CustomLogAdapter((level: string, context: unknown, message?: string) => {
  held.push(`${level.toUpperCase()} ${message ?? ''} ${JSON.stringify(context)}`);
});

/** Registers the hooks; call once at the top of a test file (or suite) that creates SDKs. */
export function quietSdkLogs(): void {
  const original = process.stdout.write;
  beforeAll(() => {
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      held.push(typeof chunk === 'string' ? chunk.trimEnd() : Buffer.from(chunk).toString('utf8').trimEnd());
      const done = rest.find((r): r is () => void => typeof r === 'function');
      done?.();
      return true;
    }) as typeof process.stdout.write;
  });
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail' && held.length > 0) process.stderr.write(`SDK logs during "${ctx.task.name}":\n${held.join('\n')}\n`);
    held.length = 0;
  });
  afterAll(() => {
    process.stdout.write = original;
    held.length = 0;
  });
}
