/**
 * Delivering a report: to `--output-file` (checked before the run writes or reads anything: see
 * src/port/output-path.ts) or to stdout. A write that fails ends the run with an `OutputError`
 * (exit 2, one line on stderr).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { discoverFiles } from '../port/discover.js';
import { reportPathProblem } from '../port/output-path.js';
import { OutputError, UsageError } from './exit-codes.js';
import type { CliIo } from './io.js';

/** For `analyze`/`check`: refuses an `--output-file` that is a file the scan reads, or cannot be written. */
export async function checkReportFile(io: CliIo, outputFile: string, paths: readonly string[], ignore: readonly string[]): Promise<void> {
  // a named path that is missing is the run's error to report; the report path is checked against what exists
  const { files } = await discoverFiles({ cwd: io.cwd, paths, ignore });
  const problem = reportPathProblem(io.cwd, outputFile, files);
  if (problem) throw new UsageError(problem);
}

/** To stdout (whose write errors main() turns into an `OutputError` once the command is done), or to the file. */
export function deliverReport(io: CliIo, outputFile: string | undefined, text: string): void {
  if (outputFile === undefined) {
    io.stdout(text);
    return;
  }
  const target = path.resolve(io.cwd, outputFile);
  try {
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text, 'utf8');
  } catch (error) {
    throw new OutputError(outputFile, error);
  }
}
