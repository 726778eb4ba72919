import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'reference-server/src/**/*.test.ts', 'conformance/src/**/*.test.ts'],
    // Two cores: forks keep native handles (sockets, servers) isolated per file.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
