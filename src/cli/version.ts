/** The package version, read from the nearest package.json named `mrtr-port` (works from src/ and dist/). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function toolVersion(): string {
  if (cached !== undefined) return cached;
  cached = '0.0.0';
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'mrtr-port' && typeof pkg.version === 'string') {
        cached = pkg.version;
        break;
      }
    } catch {
      // no package.json here: keep walking up
    }
    if (path.dirname(dir) === dir) break;
  }
  return cached;
}
