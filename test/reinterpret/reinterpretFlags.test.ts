import { describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../conformance/src/cli/run.js';
import { UsageError } from '../../conformance/src/cli/exitCodes.js';

describe('run --reinterpret', () => {
  it('takes engine or none, and nothing else (a usage error naming the value)', () => {
    expect(parseRunArgs(['--target', 'http://127.0.0.1:1', '--reinterpret', 'none'])).toMatchObject({ reinterpret: 'none' });
    expect(parseRunArgs(['--target', 'http://127.0.0.1:1', '--reinterpret', 'engine'])).toMatchObject({ reinterpret: 'engine' });
    expect(parseRunArgs(['--target', 'http://127.0.0.1:1'])).not.toHaveProperty('reinterpret');
    expect(() => parseRunArgs(['--target', 'http://127.0.0.1:1', '--reinterpret', 'off'])).toThrow(UsageError);
    expect(() => parseRunArgs(['--target', 'http://127.0.0.1:1', '--reinterpret', 'off'])).toThrow(/--reinterpret takes engine or none \(got 'off'\)/);
  });
});
