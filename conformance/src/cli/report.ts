import { UsageError } from './exitCodes.js';

// Placeholder until the issue that builds `report` lands; it refuses clearly rather than pretending.
export function run(_argv: string[]): Promise<number> {
  return Promise.reject(new UsageError('`report` is not available in this build yet'));
}
