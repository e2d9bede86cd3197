/**
 * tsconfig `paths` and `baseUrl`, mapped as the compiler maps them: `@/handlers/sampling` under
 * `"paths": { "@/*": ["src/*"] }` is `src/handlers/sampling.ts`. A third of the real servers in the corpus
 * import their own modules this way; without it, a helper reached only through an alias has no caller
 * and its ask no handler. The config is the importing file's nearest `tsconfig.json` (or
 * `jsconfig.json`), its `extends` followed by the compiler; only analyzed files are targets.
 */
import { dirname, join, resolve } from 'node:path';
import ts from '../typescript.cjs';
import { resolveModulePath } from './modules.js';

interface Mapping {
  /** Where the `paths` substitutions are taken from (`baseUrl`, else the folder of the config that set `paths`). */
  pathsBase: string;
  paths: ReadonlyMap<string, readonly string[]>;
  /** Non-relative names also resolve against it when no pattern takes them. */
  baseUrl?: string;
}

const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];

export class PathAliases {
  private readonly configOfDir = new Map<string, string | null>();
  private readonly mappings = new Map<string, Mapping | null>();

  constructor(
    private readonly files: ReadonlySet<string>,
    private readonly cwd: string,
  ) {}

  /** The analyzed file a non-relative specifier of `fromFile` names through its config; undefined when none does. */
  resolve(fromFile: string, spec: string): string | undefined {
    const config = this.configFor(dirname(fromFile));
    const mapping = config ? this.mappingOf(config) : undefined;
    if (!mapping) return undefined;
    const exists = (p: string): boolean => this.files.has(p);
    const pattern = matchingPattern(mapping.paths, spec);
    if (pattern !== undefined) {
      const star = pattern.includes('*') ? spec.slice(pattern.indexOf('*'), spec.length - (pattern.length - pattern.indexOf('*') - 1)) : '';
      for (const target of mapping.paths.get(pattern)!) {
        const hit = resolveModulePath(resolve(mapping.pathsBase, target.replace('*', star)), exists);
        if (hit) return hit;
      }
    }
    return mapping.baseUrl ? resolveModulePath(resolve(mapping.baseUrl, spec), exists) : undefined;
  }

  /** The nearest config file from `dir` up to the working directory (to the root for files outside it). */
  private configFor(dir: string): string | undefined {
    const known = this.configOfDir.get(dir);
    if (known !== undefined) return known ?? undefined;
    let found: string | undefined;
    for (const name of CONFIG_NAMES) {
      const candidate = join(dir, name);
      if (ts.sys.fileExists(candidate)) {
        found = candidate;
        break;
      }
    }
    const root = resolve(this.cwd);
    const last = dir === root || dirname(dir) === dir;
    if (found === undefined && !last) found = this.configFor(dirname(dir));
    this.configOfDir.set(dir, found ?? null);
    return found;
  }

  private mappingOf(config: string): Mapping | undefined {
    const known = this.mappings.get(config);
    if (known !== undefined) return known ?? undefined;
    const mapping = readMapping(config);
    this.mappings.set(config, mapping ?? null);
    return mapping;
  }
}

function readMapping(config: string): Mapping | undefined {
  const read = ts.readConfigFile(config, ts.sys.readFile);
  if (read.error || !read.config) return undefined;
  // only the options: listing the config's `include` would walk the whole tree
  const host: ts.ParseConfigHost = { ...ts.sys, readDirectory: () => [] };
  const { options } = ts.parseJsonConfigFileContent(read.config, host, dirname(config), undefined, config);
  const baseUrl = typeof options.baseUrl === 'string' ? options.baseUrl : undefined;
  const paths = new Map(Object.entries(options.paths ?? {}).filter((e): e is [string, string[]] => Array.isArray(e[1])));
  if (paths.size === 0 && !baseUrl) return undefined;
  // the compiler keeps where an extended config's `paths` were written (pathsBasePath) when no baseUrl says
  const pathsBasePath = (options as { pathsBasePath?: unknown }).pathsBasePath;
  return { pathsBase: baseUrl ?? (typeof pathsBasePath === 'string' ? pathsBasePath : dirname(config)), paths, baseUrl };
}

/** The pattern the compiler picks: an exact key, else the wildcard pattern with the longest prefix that matches. */
function matchingPattern(paths: ReadonlyMap<string, readonly string[]>, spec: string): string | undefined {
  if (paths.has(spec) && !spec.includes('*')) return spec;
  let best: string | undefined;
  let bestPrefix = -1;
  for (const pattern of paths.keys()) {
    const star = pattern.indexOf('*');
    if (star < 0 || pattern.indexOf('*', star + 1) >= 0) continue;
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (spec.length >= prefix.length + suffix.length && spec.startsWith(prefix) && spec.endsWith(suffix) && prefix.length > bestPrefix) {
      best = pattern;
      bestPrefix = prefix.length;
    }
  }
  return best;
}
