/**
 * The analyzer reads files from disk, but a v1 file must be analyzed as the v2 text the migration made
 * of it (its sites' lines and shapes change), before anything is written (dry-run, rollback). So when the
 * migration changed something, the analyzer runs over a throw-away mirror of the file set in a temp
 * directory: migrated files with their new text, the others copied, every file at the same path relative
 * to the working directory, so the analyzer's relative paths (and relative imports) stay the same.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse, relative, resolve } from 'node:path';

export interface AnalysisMirror {
  cwd: string;
  files: string[];
  dispose(): void;
}

/**
 * `texts` holds the replacement text of the files that changed; other files are copied. Paths outside
 * the working directory keep their place relative to it inside the mirror (the mirror nests `cwd` deep
 * enough for every `..`).
 */
export function createAnalysisMirror(cwd: string, files: readonly string[], texts: ReadonlyMap<string, string>): AnalysisMirror {
  const root = mkdtempSync(join(tmpdir(), 'mrtr-port-analysis-'));
  try {
    const absCwd = resolve(cwd);
    // Mirror the whole path from the file-system root so `..` segments resolve inside the temp dir.
    const mirrorOf = (abs: string) => join(root, relative(parse(abs).root, abs));
    const mirrored: string[] = [];
    for (const file of files) {
      const target = mirrorOf(resolve(file));
      mkdirSync(dirname(target), { recursive: true });
      const text = texts.get(file);
      if (text !== undefined) writeFileSync(target, text);
      else copyFileSync(file, target);
      mirrored.push(target);
    }
    const mirrorCwd = mirrorOf(absCwd);
    mkdirSync(mirrorCwd, { recursive: true });
    return { cwd: mirrorCwd, files: mirrored, dispose: () => rmSync(root, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}
