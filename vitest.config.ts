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
    // Test files run in parallel: the default (cores − 1) is one worker on the 2-core machine, so every
    // file ran after the other. Three, because the slow files mostly wait on processes they spawn (the
    // CLI, e2e replicas, tsc, redis-server), which the third keeps the two cores busy through. Files
    // share nothing: ports are ephemeral (listen(0)) and every scratch folder is a mkdtemp.
    maxWorkers: 3,
  },
});
