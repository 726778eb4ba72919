import { UsageError } from './exitCodes.js';

// Placeholder until the issue that builds `serve` lands; it refuses clearly rather than pretending.
export function run(_argv: string[]): Promise<number> {
  return Promise.reject(new UsageError('`serve` is not available in this build yet'));
}
