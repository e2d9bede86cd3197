/** Runs a report command for the CLI: progress on a TTY, the report to stdout or `--output-file`, the exit code. */
import type { CliIo } from './io.js';
import type { ReportOptions } from './options.js';
import { checkReportFile, deliverReport } from './report-output.js';
import type { RunOptions, RunResult } from './run.js';

export async function emitReport(
  run: (options: RunOptions) => Promise<RunResult>,
  paths: readonly string[],
  options: ReportOptions,
  io: CliIo,
): Promise<void> {
  if (options.outputFile !== undefined) await checkReportFile(io, options.outputFile, paths, options.ignore);
  const progress = io.stderrIsTTY ? (message: string) => io.stderr(`\r\x1b[Kmrtr-port: ${message}`) : undefined;
  let shown = false;
  const result = await run({
    cwd: io.cwd,
    paths,
    ignore: options.ignore,
    format: options.format,
    onProgress: progress
      ? (message) => {
          shown = true;
          progress(message);
        }
      : undefined,
  });
  if (shown) io.stderr('\r\x1b[K');

  deliverReport(io, options.outputFile, result.output);
  if (options.verbose) {
    const t = result.timings;
    io.stderr(
      `mrtr-port: ${result.report.files.scanned} files; discover ${t.discover.toFixed(0)} ms, ` +
        `analyze ${t.analyze.toFixed(0)} ms, markers ${t.markers.toFixed(0)} ms\n`,
    );
  }
  io.exitCode = result.exitCode;
}
