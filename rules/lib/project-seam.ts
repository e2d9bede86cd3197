/**
 * Is the SDK's verify seam (`new McpServer(info, { requestState: { verify } })`) configured somewhere in
 * the project a file belongs to? Rules read one file at a time, but the seam is usually configured where
 * the server is built, next to (not in) the handler files. So the project's sources are searched as
 * text, once per project and run (cached briefly for editors, which keep the process alive).
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import fg from 'fast-glob';

/** `requestState: { verify: codec.verify }`, `requestState: { async verify(s, ctx) { … } }`. */
const SEAM = /\brequestState\s*:\s*\{[^{}]*?\bverify\b/;
const SOURCES = '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}';
const IGNORED = ['**/node_modules/**', '**/dist/**', '**/build/**', '**/coverage/**', '**/.git/**'];
/** Bounds on what a search reads: a project larger than this is searched only this far. */
const MAX_FILES = 5_000;
const MAX_FILE_BYTES = 1_000_000;
/** How long a search result is reused: one lint run, or a few seconds of typing in an editor. */
const CACHE_MS = 10_000;

const cache = new Map<string, { at: number; configured: boolean }>();

/** Does `text` configure the seam? */
export function configuresSeam(text: string): boolean {
  return text.includes('verify') && SEAM.test(text);
}

/** Is the seam configured in any source file of the project holding `filename` (nearest package.json up)? */
export function seamConfiguredInProject(filename: string, cwd: string): boolean {
  const root = projectRoot(isAbsolute(filename) ? filename : resolve(cwd, filename));
  if (!root) return false;
  const cached = cache.get(root);
  const now = Date.now();
  if (cached && now - cached.at < CACHE_MS) return cached.configured;
  const configured = searchProject(root);
  cache.set(root, { at: now, configured });
  return configured;
}

function searchProject(root: string): boolean {
  const files = fg.sync(SOURCES, { cwd: root, ignore: IGNORED, absolute: true, followSymbolicLinks: false, suppressErrors: true });
  for (const file of files.slice(0, MAX_FILES)) {
    try {
      if (statSync(file).size > MAX_FILE_BYTES) continue;
      if (configuresSeam(readFileSync(file, 'utf8'))) return true;
    } catch {
      // unreadable (removed meanwhile, permissions): it configures nothing we can see
    }
  }
  return false;
}

/** The nearest directory above `file` holding a package.json; undefined when there is none. */
function projectRoot(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    try {
      if (statSync(join(dir, 'package.json')).isFile()) return dir;
    } catch {
      // no package.json here: keep walking up
    }
    if (dirname(dir) === dir) return undefined;
  }
}
