/**
 * Files of a package that the run did not scan (`port src/tools` in a package whose `src/index.ts` is
 * outside) but that still import SDK v1: the package.json update must keep the v1 dependency for them,
 * or the rest of the package stops resolving its imports after `npm install`.
 */
import { readFileSync } from 'node:fs';
import type { PortDependencies } from './dependencies.js';
import { importedPackages } from './manifest.js';
import { SDK_PACKAGES } from '../vocabulary.js';

export type Discover = PortDependencies['discoverFiles'];

/**
 * For each package root, the sources below it that are not in `scanned` and import SDK v1, as absolute
 * paths (sorted). Only files whose text names the package are parsed for imports; an unreadable file
 * is left out (the port never touched it).
 */
export async function v1ImportersOutside(
  packageRoots: readonly string[],
  scanned: ReadonlySet<string>,
  discover: Discover,
  options: { cwd: string; ignore: readonly string[] },
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const root of packageRoots) {
    const found = await discover({ cwd: options.cwd, paths: [root], ignore: options.ignore });
    const importers: string[] = [];
    for (const file of found.files) {
      if (scanned.has(file)) continue;
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      if (text.includes(SDK_PACKAGES.v1) && importedPackages(text).has(SDK_PACKAGES.v1)) importers.push(file);
    }
    if (importers.length > 0) out.set(root, importers);
  }
  return out;
}
