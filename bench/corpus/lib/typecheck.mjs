// `--typecheck`: does the ported tree still type-check and start? Installs the repository's own
// dependencies from its package-lock.json (`npm ci --ignore-scripts`: the npm registry only, no
// install scripts), runs `tsc --noEmit` on the original and the ported tree, and starts the
// server's entry on stdio for a few seconds before and after. Only for repositories with a
// package-lock.json at the extracted root; anything else says why it was not tried.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const INSTALL_TIMEOUT_MS = 300_000;
const TSC_TIMEOUT_MS = 300_000;
const START_MS = 5_000;
const TSX = import.meta.resolve('tsx');

const run = (cmd, args, cwd, timeout, input) =>
  spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, maxBuffer: 1 << 28, input, env: { ...process.env, CI: '1', NODE_OPTIONS: '' } });

/** `file(line,col): error TSxxxx` lines of a tsc run, as a set of stable keys (no column). */
function tscErrors(dir) {
  const local = join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
  const tsc = existsSync(local) ? local : fileURLToPath(import.meta.resolve('typescript/bin/tsc'));
  const r = run(process.execPath, [tsc, '--noEmit', '-p', '.'], dir, TSC_TIMEOUT_MS);
  if (r.error) return { error: r.error.message, keys: new Set() };
  const keys = new Set((r.stdout ?? '').split('\n').filter((l) => / error TS\d+/.test(l)).map((l) => l.replace(/\((\d+),\d+\)/, '($1)').trim()));
  return { error: null, keys };
}

/** The entry a person would start: package.json bin/main when it is a source file, else src/index.*. */
function findEntry(dir) {
  let pkg = {};
  try {
    pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    // no manifest: fall back to the usual source names
  }
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin ? Object.values(pkg.bin)[0] : null;
  const candidates = [bin, pkg.main, 'src/index.ts', 'src/index.js', 'index.ts', 'index.js', 'src/server.ts'].filter(Boolean);
  // A built file (dist/, build/) is not in the snapshot; map it back to its source when one exists.
  for (const c of candidates) {
    const source = c.replace(/^(\.\/)?(dist|build)\//, 'src/').replace(/\.js$/, '.ts');
    for (const f of [c, source]) if (existsSync(join(dir, f)) && /\.(m|c)?[jt]s$/.test(f)) return f;
  }
  return null;
}

/** Starts `entry` with stdin open; `started` when it is still running after START_MS. */
function tryStart(dir, entry) {
  const r = run(process.execPath, ['--import', TSX, entry], dir, START_MS, '');
  if (r.error && r.error.code === 'ETIMEDOUT') return { started: true, detail: 'still running after 5 s' };
  // Node ends a crash with its version line; the error itself is the last line naming one.
  const lines = (r.stderr ?? '').trim().split('\n');
  const last = lines.filter((l) => /error/i.test(l)).at(-1) ?? lines.at(-1) ?? '';
  return { started: r.status === 0, detail: `exited ${r.status ?? r.signal}${last ? `: ${last.slice(0, 160)}` : ''}` };
}

/** Installs, type-checks and starts the original and the ported tree. */
export function typecheckRepo(origDir, portDir, note) {
  if (!existsSync(join(origDir, 'package-lock.json'))) return { tried: false, why: 'no package-lock.json at the extracted root' };
  if (!existsSync(join(origDir, 'tsconfig.json'))) return { tried: false, why: 'no tsconfig.json at the extracted root' };
  note('npm ci --ignore-scripts');
  const install = run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], origDir, INSTALL_TIMEOUT_MS);
  if (install.status !== 0) {
    const last = `${install.stderr ?? ''}`.trim().split('\n').filter(Boolean).at(-1) ?? install.error?.message ?? '';
    return { tried: false, why: `npm ci failed: ${last.slice(0, 200)}` };
  }
  // The port may move package.json to the v2 SDK (after a v1 migration): then the ported tree needs
  // its own install; otherwise it shares the original's node_modules.
  const manifestChanged = readFileSync(join(origDir, 'package.json'), 'utf8') !== readFileSync(join(portDir, 'package.json'), 'utf8');
  if (manifestChanged) {
    note('npm install --ignore-scripts (ported package.json changed)');
    const again = run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], portDir, INSTALL_TIMEOUT_MS);
    if (again.status !== 0) {
      const last = `${again.stderr ?? ''}`.trim().split('\n').filter(Boolean).at(-1) ?? again.error?.message ?? '';
      return { tried: false, why: `npm install of the ported package.json failed: ${last.slice(0, 200)}` };
    }
  } else if (!existsSync(join(portDir, 'node_modules'))) {
    symlinkSync(join(origDir, 'node_modules'), join(portDir, 'node_modules'), 'dir');
  }
  note('tsc --noEmit (original, ported)');
  const before = tscErrors(origDir);
  const after = tscErrors(portDir);
  const newErrors = [...after.keys].filter((k) => !before.keys.has(k));
  const entry = findEntry(origDir);
  const start = entry ? { entry, before: tryStart(origDir, entry), after: tryStart(portDir, entry) } : null;
  return { tried: true, manifestChanged, errorsBefore: before.keys.size, errorsAfter: after.keys.size, newErrors, tscError: before.error ?? after.error, start };
}
