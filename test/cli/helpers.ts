/** Temp-dir scaffolding for the CLI tests: copies of fixtures/projects and small hand-made trees. */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PROJECTS = path.join(REPO_ROOT, 'fixtures/projects');

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh empty folder outside any git work tree. */
export function tempDir(prefix = 'mrtr-cli-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A copy of `fixtures/projects/<name>` in a fresh temp folder; returns the copy's path. */
export function copyProject(name: string): string {
  const dir = path.join(tempDir(), name);
  cpSync(path.join(PROJECTS, name), dir, { recursive: true });
  return dir;
}

/** Writes files (path → text) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const full = path.join(root, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

/** Paths relative to `root`, `/`-separated, for readable assertions. */
export function rel(root: string, files: readonly string[]): string[] {
  return files.map((f) => path.relative(root, f).split(path.sep).join('/'));
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process on `cwd` with buffered output. */
export async function cli(cwd: string, ...argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { cwd, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stderrIsTTY: false, exitCode: 0 };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
