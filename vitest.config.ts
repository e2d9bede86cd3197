import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { defineConfig } from 'vitest/config';

const compileCachePreload = fileURLToPath(new URL('test/perf/compile-cache-preload.cjs', import.meta.url));

// fixtures are data: never collected, never transformed as tests
const exclude = ['fixtures/**', 'node_modules/**', 'dist/**'];
// test files that need a process of their own (see projects)
const isolatedFiles = ['test/runtime/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/probe/**/*.test.ts', 'test/perf/**/*.test.ts'];
// files of those folders that keep no process state and build type-check programs or port in-process: in a
// reused worker they find the lib, Node and SDK declarations parsed already (3-5 s of CPU for each fresh process)
const sharedAnyway = new Set(['test/runtime/template.test.ts', 'test/e2e/typecheck.test.ts', 'test/e2e/idempotence.test.ts', 'test/perf/shared-source-files.test.ts']);
// MRTR_SUITE_CPU_OUT=<file>: every test file appends its CPU seconds (worker and reaped children) to <file>
const measure = process.env.MRTR_SUITE_CPU_OUT ? [fileURLToPath(new URL('test/perf/cpu-per-file.ts', import.meta.url))] : [];
const isolatedList = fg.sync(isolatedFiles, { cwd: fileURLToPath(new URL('.', import.meta.url)) }).filter((f) => !sharedAnyway.has(f)).sort();

export default defineConfig({
  test: {
    // the type-check and end-to-end tests take 20-60 s on a quiet 2-core machine and several times that
    // when the machine is busy; a timeout is not a finding, so only a hang should hit these
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // the tool and the scripts tests spawn, compiled once to plain JS (spawned without tsx: test/compiled.ts)
    globalSetup: ['test/global-setup.ts'],
    // Test files run in parallel: the default (cores − 1) is one worker on the 2-core machine, so every
    // file ran after the other. Three, because the slow files mostly wait on processes they spawn (the
    // CLI, e2e replicas, tsc, npm, redis-server), which the third keeps the two cores busy through. Files
    // share nothing: servers listen on port 0, redis-server on a port it probes, scratch folders are mkdtemp.
    maxWorkers: 3,
    // every forked file loads the compiler (and ESLint, ts-morph) anew: compile them from V8's code cache;
    // so do the node processes the tests spawn (the compiled CLI, replicas, tsc, ESLint): NODE_OPTIONS reaches them
    execArgv: ['--require', compileCachePreload],
    env: { NODE_OPTIONS: [process.env.NODE_OPTIONS, `--require "${compileCachePreload}"`].filter(Boolean).join(' ') },
    // Three projects. `rules`: test/setup.ts (RuleTester wiring: it loads @typescript-eslint/rule-tester,
    // ESLint and the TypeScript parser, some 600 modules) runs before the rule tests, not before every file.
    // `rules` and `shared` run their files in reused workers (isolate: false): each worker loads the
    // compiler, ESLint, ts-morph and the transformed sources once, not once per file (about a third of their
    // CPU time). Their tests keep no process state (no env, cwd, fake timers or module mocks; the tool's
    // module-level state is constant tables and one reused scratch project). `isolated`: the runtime and
    // end-to-end tests set environment variables, stub timers and keep per-process claim stores and keys;
    // the probe tests talk HTTP to replicas through fetch's shared connection pool (run after one another
    // in one process, a probe met a socket an earlier file's replica had closed): each of their files gets
    // a fresh process as before, but for the four of `sharedAnyway`, which do none of that.
    projects: [
      { extends: true, test: { name: 'rules', include: ['test/rules/**/*.test.ts'], exclude, setupFiles: [...measure, 'test/setup.ts'], isolate: false } },
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...exclude, ...isolatedList, 'test/rules/**'], setupFiles: measure, isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolatedList, exclude, setupFiles: measure } },
    ],
  },
});
