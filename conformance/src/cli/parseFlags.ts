import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest } from '../runner/select.js';
import { UsageError } from './exitCodes.js';

/**
 * parseArgs, strict, with usage errors a user can act on: an unknown flag names the nearest known
 * one (`--targt` -> did you mean --target?).
 */
export function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs<T>({ strict: true, ...config });
  } catch (e) {
    const message = (e as Error).message;
    const unknown = /Unknown option '(-{1,2})([^'=]+)/.exec(message);
    if (unknown) {
      const flag = unknown[2]!;
      const hint = closest(flag, Object.keys(config.options ?? {}));
      throw new UsageError(`unknown option '${unknown[1]}${flag}'${hint ? ` (did you mean --${hint}?)` : ''}; see --help`);
    }
    throw new UsageError(message.split('. To specify a positional')[0]!);
  }
}
