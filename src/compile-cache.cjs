'use strict';
/*
 * V8's code cache for the big CommonJS bundles a run loads (the TypeScript compiler, ts-morph and its own
 * compiler copy, Babel's parser): each is compiled from the cache a previous run left instead of being
 * parsed again. Node ≥ 22.1 has this built in (`module.enableCompileCache`), which is used when present;
 * Node 20 has nothing, and compiling the compiler's 9 MB is a large share of a short run.
 *
 * Installed by the CLI's entry point (never by importing the library) and by the test workers. Only files
 * of at least MIN_BYTES go through the cache; the rest compile as usual. A cache entry is keyed by the
 * file's path, its content hash and V8's version, written after the run (so it holds the functions the
 * run compiled, not only the top level) to a temporary name and renamed. Any failure to read, write or
 * use the cache falls back to Node's own compile: the cache can make a run faster, never different.
 *
 * Where: $MRTR_PORT_COMPILE_CACHE (a folder; `off` disables), else <tmpdir>/mrtr-port-compile-cache-<uid>,
 * created private (0700) and used only while it is owned by this user and not writable by others, since
 * V8 trusts what it loads from there.
 */
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');

const MIN_BYTES = 1024 * 1024;
let installed = false;

/** Installs the cache for this process; returns the folder it uses, or null when it is off or unusable. */
function installCompileCache(env = process.env) {
  if (installed) return installed;
  const setting = env.MRTR_PORT_COMPILE_CACHE;
  // off on request, and under a policy manifest (its integrity checks live in Node's own compile)
  if (setting === 'off' || setting === '0' || process.execArgv.some((a) => a.startsWith('--experimental-policy'))) return null;
  if (typeof Module.enableCompileCache === 'function') {
    const result = Module.enableCompileCache(setting || undefined);
    installed = result && result.directory ? result.directory : true;
    return installed;
  }
  const dir = setting || path.join(os.tmpdir(), `mrtr-port-compile-cache-${typeof process.getuid === 'function' ? process.getuid() : 'user'}`);
  const versionDir = path.join(dir, process.versions.v8);
  if (!privateFolder(dir) || !privateFolder(versionDir)) return null;

  const pending = [];
  const compile = Module.prototype._compile;
  // (`format` is 'module' for an ES module Node loads through here; those keep Node's own path)
  Module.prototype._compile = function compileWithCache(content, filename, format) {
    if (typeof content !== 'string' || content.length < MIN_BYTES || format === 'module') return compile.apply(this, arguments);
    let script;
    let entry;
    let hadCache = false;
    try {
      entry = path.join(versionDir, `${createHash('sha256').update(filename).update('\0').update(content).digest('hex').slice(0, 40)}.bin`);
      const cachedData = readOrUndefined(entry);
      script = new vm.Script(Module.wrap(stripShebang(content)), {
        filename,
        cachedData,
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
      hadCache = cachedData !== undefined && !script.cachedDataRejected;
    } catch {
      return compile.apply(this, arguments);
    }
    if (!hadCache) pending.push({ script, entry });
    const mod = this;
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(mod.exports, mod.exports, requireFor(mod), mod, filename, path.dirname(filename));
  };

  process.once('exit', () => {
    for (const { script, entry } of pending) {
      try {
        const temp = `${entry}.${process.pid}.tmp`;
        fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(temp, entry);
      } catch {
        // a cache that cannot be written only costs the next run its speed
      }
    }
  });
  installed = versionDir;
  return installed;
}

/** The folder exists (made private if new), is ours and is not writable by group or others. */
function privateFolder(dir) {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.statSync(dir);
    const ours = typeof process.getuid !== 'function' || st.uid === process.getuid();
    return st.isDirectory() && ours && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function readOrUndefined(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

// Node's own loader strips a leading `#!` line before wrapping; keep the length so positions hold
function stripShebang(content) {
  return content.startsWith('#!') ? content.replace(/^#![^\r\n]*/, (line) => ' '.repeat(line.length)) : content;
}

/** The `require` Node's loader gives a module (resolve, cache, main, extensions), bound to `mod`. */
function requireFor(mod) {
  const require = (id) => mod.require(id);
  const resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
  resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
  require.resolve = resolve;
  // read now, not when this file loaded: as a --require preload it loads before the main module exists
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

/** Has this process (this thread) installed the cache? A worker the CLI starts installs it too when so. */
function compileCacheInstalled() {
  return Boolean(installed);
}

module.exports = { installCompileCache, compileCacheInstalled, MIN_BYTES };
