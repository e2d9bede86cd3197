'use strict';
/*
 * The TypeScript compiler, loaded with `require` on first use; every src/ module imports it from here
 * (`import ts from '../typescript.cjs'`, typed by typescript.d.cts as the compiler itself).
 *
 * Why not `import ts from 'typescript'`: for an ESM import of a CommonJS module Node scans the module's
 * whole text for export names (cjs-module-lexer), and for the compiler's 9 MB bundle that scan costs
 * more than loading it. Why on first use: `--help`, `--version` and a run with no file to parse must
 * not pay for the compiler at all.
 *
 * How: the exported object starts empty, with a trap as its prototype. The first read of a compiler
 * export loads the compiler, copies its exports (the bundle's own getters) onto the object and drops
 * the trap, so every later read is an ordinary own-property read.
 */
const compiler = {};

// probes that module loaders and inspectors make of any module; answering them must not load anything
const PROBES = new Set(['__esModule', 'default', 'then', 'toJSON', 'constructor']);

function load() {
  const ts = require('typescript');
  Object.defineProperties(compiler, Object.getOwnPropertyDescriptors(ts));
  Object.setPrototypeOf(compiler, Object.prototype);
  return ts;
}

Object.setPrototypeOf(
  compiler,
  new Proxy(Object.create(null), {
    get(_target, key) {
      if (typeof key === 'symbol' || PROBES.has(key)) return undefined;
      return load()[key];
    },
    has(_target, key) {
      if (typeof key === 'symbol' || PROBES.has(key)) return false;
      return key in load();
    },
  }),
);

module.exports = compiler;
