/** Temp-dir copies of fixture projects for the port tests (never run against the fixtures themselves). */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');

export function copyFixture(...segments: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-port-test-'));
  cpSync(join(repoRoot, 'fixtures', ...segments), dir, { recursive: true });
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Every file under `dir` as relative path → bytes (to prove "nothing was written"). */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p).split(sep).join('/'), readFileSync(p, 'latin1'));
    }
  };
  walk(dir);
  return out;
}
