/** `mrtr-port analyze [paths...]`: report every legacy server→client request and how portable it is. */
import { Command } from 'commander';
import { emitReport } from '../emit.js';
import type { CliIo } from '../io.js';
import { addReportOptions, type ReportOptions } from '../options.js';

export function analyzeCommand(io: CliIo): Command {
  return addReportOptions(
    new Command('analyze')
      .description('list legacy server→client requests (elicitation, sampling, roots) and how portable each is; exits 0')
      .argument('[paths...]', 'files or folders to scan', ['.']),
  ).action(async (paths: string[], options: ReportOptions) => {
    // the runner, and the analyzer behind it, load when the command runs: --help and --version stay light
    const { runAnalyze } = await import('../run.js');
    await emitReport(runAnalyze, paths, options, io);
  });
}
