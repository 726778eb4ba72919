import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The README's msw example imports the package entry; tests run it from source, not dist/.
  resolve: { alias: { 'canton-conformance/msw': fileURLToPath(new URL('./reference-server/src/msw/index.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts', 'daml-engine/**/*.test.ts', 'reference-server/src/**/*.test.ts', 'conformance/src/**/*.test.ts'],
    // Two cores: forks keep native handles (sockets, servers) isolated per file.
    pool: 'forks',
    // Everything tests write under os.tmpdir() goes to one directory, removed after the run.
    globalSetup: ['test/support/scratchTmpdir.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
