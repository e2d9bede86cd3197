/**
 * Module facts the analyzer needs without a type checker: which SDK a file imports (directly or
 * through a local re-export module), and where a relative import lands among the analyzed files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { SdkEra } from './model.js';
import { SDK_PACKAGES, V1_CLIENT_MODULE_PREFIX } from '../vocabulary.js';

const EXTENSION_SWAPS: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx', '.js'],
  '.jsx': ['.tsx', '.jsx'],
  '.mjs': ['.mts', '.mjs'],
  '.cjs': ['.cts', '.cjs'],
};
const APPENDED = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx', '/index.ts', '/index.tsx', '/index.mts', '/index.js', '/index.mjs'];

export function isRelativeSpecifier(spec: string): boolean {
  return spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..';
}

/**
 * Resolves a relative specifier the way NodeNext + bundlers do for TypeScript sources: `.js` may name
 * a `.ts` file, a folder means its `index`. `exists` decides which candidates are real.
 */
export function resolveRelative(fromFile: string, spec: string, exists: (abs: string) => boolean): string | undefined {
  if (!isRelativeSpecifier(spec)) return undefined;
  return resolveModulePath(resolve(dirname(fromFile), spec), exists);
}

/** The source file an absolute module path (no extension, a `.js` one, or a folder) stands for. */
export function resolveModulePath(base: string, exists: (abs: string) => boolean): string | undefined {
  const candidates: string[] = [];
  for (const [ext, swaps] of Object.entries(EXTENSION_SWAPS)) {
    if (base.endsWith(ext)) for (const s of swaps) candidates.push(base.slice(0, -ext.length) + s);
  }
  candidates.push(base);
  for (const a of APPENDED) candidates.push(base + a);
  return candidates.find(exists);
}

/** The era a module specifier of an SDK package stands for; undefined for anything else. */
export function eraOfSpecifier(spec: string): { era: SdkEra; side: 'server' | 'client' | 'shared' } | undefined {
  if (spec === SDK_PACKAGES.v2Client || spec.startsWith(`${SDK_PACKAGES.v2Client}/`)) return { era: 'v2', side: 'client' };
  if (spec === SDK_PACKAGES.v2Server || spec.startsWith(`${SDK_PACKAGES.v2Server}/`)) return { era: 'v2', side: 'server' };
  if (spec === SDK_PACKAGES.v2Core || spec.startsWith(`${SDK_PACKAGES.v2Core}/`)) return { era: 'v2', side: 'shared' };
  if (spec.startsWith(V1_CLIENT_MODULE_PREFIX)) return { era: 'v1', side: 'client' };
  if (spec === SDK_PACKAGES.v1 || spec.startsWith(`${SDK_PACKAGES.v1}/`)) {
    return { era: 'v1', side: spec.includes('/server/') ? 'server' : 'shared' };
  }
  return undefined;
}

const REEXPORT_RE = /export\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s+from\s+['"]([^'"]+)['"]/g;

/**
 * The SDK era a local re-export module (`export { McpServer } from '@modelcontextprotocol/server'`)
 * passes on. Text-level on purpose: such modules hold no legacy names, so they are never parsed.
 */
export function eraThroughReexports(file: string, depth = 0, seen = new Set<string>()): SdkEra | undefined {
  if (depth > 4 || seen.has(file)) return undefined;
  seen.add(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  for (const m of text.matchAll(REEXPORT_RE)) {
    const spec = m[1];
    const direct = eraOfSpecifier(spec);
    if (direct) return direct.era;
    const next = resolveRelative(file, spec, existsSync);
    if (next) {
      const era = eraThroughReexports(next, depth + 1, seen);
      if (era) return era;
    }
  }
  return undefined;
}

/** `@modelcontextprotocol/server/stdio` → `@modelcontextprotocol/server`; `zod/v4` → `zod`. */
export function packageRoot(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}
