/** `mrtr-port check [paths...]`: the CI gate; exits 1 while anything is left to port or resolve. */
import { Command } from 'commander';
import { emitReport } from '../emit.js';
import type { CliIo } from '../io.js';
import { addReportOptions, type ReportOptions } from '../options.js';

export function checkCommand(io: CliIo): Command {
  return addReportOptions(
    new Command('check')
      .description('fail (exit 1) while a legacy request other than a guarded one, a @mrtr-port-todo marker, or an unparsable file remains')
      .argument('[paths...]', 'files or folders to scan', ['.']),
  ).action(async (paths: string[], options: ReportOptions) => {
    // the runner, and the analyzer behind it, load when the command runs: --help and --version stay light
    const { runCheck } = await import('../run.js');
    await emitReport(runCheck, paths, options, io);
  });
}
