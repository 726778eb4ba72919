import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest globalSetup: one scratch directory per `npm test`, removed at the end. Tests make report
 * directories, keys, data dirs and fixture files under os.tmpdir(); TMPDIR points the test
 * workers and every process they spawn (serve, the CLI, Chromium) here, so a run leaves nothing
 * behind in the machine's /tmp however a test ends.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'canton-conformance-test-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
