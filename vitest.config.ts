import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // fixtures are data: never collected, never transformed as tests
    exclude: ['fixtures/**', 'node_modules/**', 'dist/**'],
    setupFiles: ['test/setup.ts'],
    // the type-check and end-to-end tests take 20-60 s on a quiet 2-core machine and several times that
    // when the machine is busy; a timeout is not a finding, so only a hang should hit these
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
