/**
 * Finds the source files under the paths a user named: the one file walk shared by `analyze`, `check`
 * and `port`. It never follows a symlink found while walking, skips dependency and build folders and
 * declaration files, and applies every `.gitignore` that governs a file (the repository's from its root
 * down, then each folder's own) plus the user's `--ignore` globs, with git's precedence: the deepest
 * matching rule wins, and nothing inside an ignored folder comes back.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export const SOURCE_EXTENSIONS: readonly string[] = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** Folders never entered below a named path: dependencies, build output, VCS metadata. */
export const SKIPPED_DIRECTORIES: readonly string[] = ['node_modules', 'dist', 'build', 'out', 'coverage', '.next', '.git', '.hg', '.svn'];

export interface DiscoverOptions {
  /** Relative paths and `--ignore` globs are resolved against it. */
  cwd: string;
  /** Files or folders; defaults to `['.']`. */
  paths?: readonly string[];
  /** gitignore-style globs, relative to `cwd` (e.g. `src/generated/`, `**\/*.test.ts`). */
  ignore?: readonly string[];
}

export interface DiscoverResult {
  /** Absolute paths, sorted, without duplicates. */
  files: string[];
  /** Named paths that do not exist (as the user wrote them). */
  missing: string[];
  /** Named paths that exist but hold no source file (after skips and ignores). */
  empty: string[];
  /** Symlinks met while walking and not followed (absolute paths, sorted). */
  symlinks: string[];
  /** Folders below a named path that could not be listed (EACCES…): absolute paths, sorted, with the error code. */
  unreadable: { path: string; code: string }[];
}

/** gitignore rules that apply below `base` (an absolute folder). */
interface IgnoreLayer {
  base: string;
  rules: Ignore;
}

export function isSourceFile(file: string): boolean {
  const name = path.basename(file);
  if (/\.d\.[mc]?ts$/.test(name)) return false;
  return SOURCE_EXTENSIONS.includes(path.extname(name));
}

export async function discoverFiles(options: DiscoverOptions): Promise<DiscoverResult> {
  const cwd = path.resolve(options.cwd);
  const named = options.paths && options.paths.length > 0 ? options.paths : ['.'];
  const userLayer: IgnoreLayer | undefined =
    options.ignore && options.ignore.length > 0 ? { base: cwd, rules: ignore().add([...options.ignore]) } : undefined;

  const files = new Set<string>();
  const symlinks = new Set<string>();
  const unreadable: DiscoverResult['unreadable'] = [];
  const missing: string[] = [];
  const empty: string[] = [];

  for (const given of named) {
    const absolute = path.resolve(cwd, given);
    // A path the user names is taken as given, even through a symlink; only the walk below refuses them.
    const info = await stat(absolute).catch(() => undefined);
    if (!info) {
      missing.push(given);
      continue;
    }
    const found: string[] = [];
    if (info.isDirectory()) {
      const repository = repositoryLayers(absolute);
      // Naming a folder the repository ignores is a request to scan it: its ancestors' rules step aside.
      const layers = isIgnored(absolute, true, repository) ? [] : [...repository];
      if (userLayer) layers.push(userLayer);
      walk(absolute, layers, userLayer, found, symlinks, unreadable);
    } else if (info.isFile() && isSourceFile(absolute)) {
      found.push(absolute);
    }
    if (found.length === 0) empty.push(given);
    for (const f of found) files.add(f);
  }

  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  // a symlink the user also named is not "not followed"
  const skippedLinks = [...symlinks].filter((link) => !files.has(link)).sort();
  return { files: [...files].sort(), missing, empty, symlinks: skippedLinks, unreadable: unreadable.sort(byPath) };
}

/**
 * Synchronous: on a local disk one `readdirSync` after another lists a tree in about 60% of the time of
 * the same listings through promises (2,428 folders of typescript-eslint: 84–133 ms against 132–210 ms).
 */
function walk(
  dir: string,
  layers: readonly IgnoreLayer[],
  userLayer: IgnoreLayer | undefined,
  found: string[],
  symlinks: Set<string>,
  unreadable: DiscoverResult['unreadable'],
): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    // reported, never silently left out: it may hold sources
    unreadable.push({ path: dir, code: (error as NodeJS.ErrnoException).code ?? 'EIO' });
    return;
  }
  // the listing says whether the folder has a .gitignore: no lookup (a failed one costs an Error) per folder
  const own = entries.some((e) => e.name === '.gitignore' && e.isFile()) ? readIgnoreFile(path.join(dir, '.gitignore'), dir) : undefined;
  // The user's globs stay last so they can exclude what a .gitignore re-includes.
  const here = own ? [...layers.filter((l) => l !== userLayer), own, ...(userLayer ? [userLayer] : [])] : layers;
  const subdirs: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      // Listed (not followed) when it would have been scanned: a source file, or a folder.
      if (!isIgnored(full, false, here) && (isSourceFile(full) || pointsToDirectory(full))) symlinks.add(full);
      continue;
    }
    if (entry.isDirectory()) {
      if (SKIPPED_DIRECTORIES.includes(entry.name) || isIgnored(full, true, here)) continue;
      subdirs.push(full);
    } else if (entry.isFile() && isSourceFile(full) && !isIgnored(full, false, here)) {
      found.push(full);
    }
  }
  for (const sub of subdirs) walk(sub, here, userLayer, found, symlinks, unreadable);
}

function pointsToDirectory(link: string): boolean {
  try {
    return statSync(link).isDirectory();
  } catch {
    return false; // dangling, a loop, or not ours to read
  }
}

/** git's rule: layers from the outermost to the innermost; the last one with a matching rule decides. */
function isIgnored(file: string, isDirectory: boolean, layers: readonly IgnoreLayer[]): boolean {
  let ignored = false;
  for (const layer of layers) {
    // both are absolute and normalized (resolve/join): a prefix test, not path.relative's two resolves per layer
    const prefix = layer.base.endsWith(path.sep) ? layer.base : layer.base + path.sep;
    if (!file.startsWith(prefix) || file.length === prefix.length) continue;
    const rel = file.slice(prefix.length);
    const posix = (path.sep === '/' ? rel : rel.split(path.sep).join('/')) + (isDirectory ? '/' : '');
    const verdict = layer.rules.test(posix);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

/**
 * The ignore rules that reach `dir` from above: when it sits inside a git work tree, the repository's
 * `.git/info/exclude` and every `.gitignore` from the repository root down to `dir`'s parent.
 * (`dir`'s own `.gitignore` is read by the walk.)
 */
function repositoryLayers(dir: string): IgnoreLayer[] {
  const root = findGitRoot(dir);
  if (root === undefined || root === dir) {
    const exclude = root === dir ? readIgnoreFile(path.join(root, '.git', 'info', 'exclude'), root) : undefined;
    return exclude ? [exclude] : [];
  }
  const layers: IgnoreLayer[] = [];
  const exclude = readIgnoreFile(path.join(root, '.git', 'info', 'exclude'), root);
  if (exclude) layers.push(exclude);
  const chain: string[] = [];
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    chain.unshift(d);
    if (d === root || path.dirname(d) === d) break;
  }
  for (const d of chain) {
    const layer = readIgnoreFile(path.join(d, '.gitignore'), d);
    if (layer) layers.push(layer);
  }
  return layers;
}

/** The nearest folder at or above `dir` holding `.git` (a folder, or a file for worktrees and submodules). */
function findGitRoot(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    if (existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

/** A gitignore-style file's rules, when `file` is a regular file (not a link, not a folder) with any. */
function readIgnoreFile(file: string, base: string): IgnoreLayer | undefined {
  let text = '';
  try {
    if (!lstatSync(file, { throwIfNoEntry: false })?.isFile()) return undefined;
    text = readFileSync(file, 'utf8');
  } catch {
    // unreadable: no rules from it, as before
  }
  return text.trim() === '' ? undefined : { base, rules: ignore().add(text) };
}

