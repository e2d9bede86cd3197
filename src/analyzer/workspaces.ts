/**
 * Packages of the analyzed tree imported by their package name (monorepo workspaces:
 * `import { plugin } from '@acme/prolog'` where `packages/prolog/package.json` is named so): where such
 * a specifier lands among the analyzed files, through the package's `exports`/`main`/`module`/`types`
 * with built paths mapped back to sources (`dist/index.js` → `src/index.ts`). Anything else stays a
 * package from outside. Package manifests are read from disk, once per folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { resolveRelative } from './modules.js';

interface WorkspacePackage {
  dir: string;
  manifest: Record<string, unknown>;
}

const BUILD_FOLDERS = ['dist', 'build', 'lib', 'out'];
/** Entry conditions in the order a TypeScript source is most likely behind them. */
const CONDITIONS = ['source', 'types', 'import', 'module', 'default', 'require', 'node'];

export class Workspaces {
  private byName: Map<string, WorkspacePackage> | undefined;

  constructor(
    private readonly files: ReadonlySet<string>,
    private readonly root: string,
  ) {}

  /** The analyzed file a bare specifier names, when it is one of the tree's own packages. */
  resolve(spec: string): string | undefined {
    const { name, subpath } = splitSpecifier(spec);
    if (!name) return undefined;
    const pkg = this.packages().get(name);
    if (!pkg) return undefined;
    const exported = exportTarget(pkg.manifest.exports, subpath);
    const declared = subpath === '.' ? [exported, pkg.manifest.source, pkg.manifest.module, pkg.manifest.main, pkg.manifest.types, pkg.manifest.typings] : [exported];
    for (const built of declared) {
      if (typeof built !== 'string') continue;
      const hit = sourceOfBuilt(pkg.dir, built, this.files);
      if (hit) return hit;
    }
    // no declared entry that maps to a source: the conventional places
    const guesses = subpath === '.' ? ['src/index', 'index'] : [subpath.slice(2), `src/${subpath.slice(2)}`];
    for (const g of guesses) {
      const hit = resolveRelative(join(pkg.dir, 'package.json'), `./${g}`, (p) => this.files.has(p));
      if (hit) return hit;
    }
    return undefined;
  }

  /** Every package.json at or above an analyzed file's folder (up to the root), by its `name`. */
  private packages(): Map<string, WorkspacePackage> {
    if (this.byName) return this.byName;
    const byName = new Map<string, WorkspacePackage>();
    const seen = new Set<string>();
    for (const file of this.files) {
      for (let dir = dirname(file); !seen.has(dir); dir = dirname(dir)) {
        seen.add(dir);
        const manifest = readManifest(join(dir, 'package.json'));
        const name = manifest?.name;
        if (typeof name === 'string' && !byName.has(name)) byName.set(name, { dir, manifest: manifest! });
        if (dir === this.root || dirname(dir) === dir) break;
      }
    }
    this.byName = byName;
    return byName;
  }
}

/**
 * The analyzed source file a built path of a package stands for: the path itself, or with a build
 * folder (`dist/`, `build/`, `lib/`, `out/`) swapped for `src/` or dropped, declaration files read as
 * their module.
 */
export function sourceOfBuilt(dir: string, built: string, files: ReadonlySet<string>): string | undefined {
  const rel = built.replace(/^\.\//, '');
  const stripped = rel.replace(/\.d\.[mc]?ts$/, '.js');
  const bases = [stripped, ...BUILD_FOLDERS.flatMap((b) => (stripped.startsWith(`${b}/`) ? [`src/${stripped.slice(b.length + 1)}`, stripped.slice(b.length + 1)] : []))];
  for (const base of bases) {
    const hit = resolveRelative(join(dir, 'package.json'), `./${base}`, (p) => files.has(p));
    if (hit) return hit;
  }
  return undefined;
}

/** `@scope/name/sub/path` → `{ name: '@scope/name', subpath: './sub/path' }`; `.` for the package itself. */
function splitSpecifier(spec: string): { name: string | undefined; subpath: string } {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) return { name: undefined, subpath: '.' };
  const parts = spec.split('/');
  const n = spec.startsWith('@') ? 2 : 1;
  if (parts.length < n || parts.slice(0, n).some((p) => p.length === 0)) return { name: undefined, subpath: '.' };
  const rest = parts.slice(n).join('/');
  return { name: parts.slice(0, n).join('/'), subpath: rest ? `./${rest}` : '.' };
}

/** The path `exports` maps a subpath to (a string, a conditions object, or a subpath map). */
function exportTarget(exports: unknown, subpath: string): string | undefined {
  if (typeof exports === 'string') return subpath === '.' ? exports : undefined;
  if (!exports || typeof exports !== 'object' || Array.isArray(exports)) return undefined;
  const map = exports as Record<string, unknown>;
  const keyed = Object.keys(map).some((k) => k.startsWith('.'));
  if (!keyed) return subpath === '.' ? conditionTarget(map) : undefined;
  const hit = map[subpath];
  if (hit !== undefined) return typeof hit === 'string' ? hit : conditionTarget(hit);
  // `"./*": "./dist/*.js"`
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf('*');
    if (star < 0 || !subpath.startsWith(key.slice(0, star)) || !subpath.endsWith(key.slice(star + 1))) continue;
    const middle = subpath.slice(star, subpath.length - (key.length - star - 1));
    const target = typeof value === 'string' ? value : conditionTarget(value);
    if (target) return target.replace('*', middle);
  }
  return undefined;
}

function conditionTarget(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object' || depth > 4) return undefined;
  const conditions = value as Record<string, unknown>;
  for (const c of CONDITIONS) {
    const t = conditionTarget(conditions[c], depth + 1);
    if (t) return t;
  }
  return undefined;
}

function readManifest(path: string): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const json = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
