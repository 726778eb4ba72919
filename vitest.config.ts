import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The README's msw example imports the package entry; tests run it from source, not dist/.
  resolve: { alias: { 'canton-conformance/msw': fileURLToPath(new URL('./reference-server/src/msw/index.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts', 'daml-engine/**/*.test.ts', 'reference-server/src/**/*.test.ts', 'conformance/src/**/*.test.ts'],
    // The CLI remembers passed package checks in the user's cache (passedChecksIn.ts): not from tests.
    env: { CANTON_CONFORMANCE_CACHE: 'off' },
    // Two cores: forks keep native handles (sockets, servers) isolated per file.
    pool: 'forks',
    // Both cores (vitest's default in a run is one fewer than the cores: one worker on CI's machine).
    // Tests await events, never wall-clock time, so two files side by side only make each slower.
    maxWorkers: 2,
    // Everything tests write under os.tmpdir() goes to one directory, removed after the run.
    globalSetup: ['test/support/scratchTmpdir.ts'],
    // Hang guards, not speed limits: generous enough for a heavy file next to another on two cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
