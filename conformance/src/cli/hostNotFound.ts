import { UsageError } from './exitCodes.js';

/**
 * A `--host` (or `serve`'s HOST) that does not resolve, as a usage error (exit 2), or undefined for any
 * other error: Node reports it while listening, with no word of which flag to fix.
 */
export function hostNotFound(e: unknown, host: string, port: number | string): UsageError | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'ENOTFOUND' && code !== 'EAI_AGAIN') return undefined;
  return new UsageError(`cannot listen on ${host}:${port}: the host name does not resolve (${code}); give --host an address or a name of this machine`);
}
