// Test workers' preload (vitest.config.ts execArgv): each forked test file compiles the compiler, ESLint's
// parser and ts-morph from V8's code cache instead of parsing them again (src/compile-cache.cjs).
require('../../src/compile-cache.cjs').installCompileCache();
