/** Options shared by the commands that report: `--format`, `--output-file`, `--ignore`, `--verbose`. */
import { Command, Option } from 'commander';
import { OUTPUT_FORMATS, type OutputFormat } from './reporters/index.js';

export interface ReportOptions {
  format: OutputFormat;
  outputFile?: string;
  ignore: string[];
  verbose: boolean;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function addReportOptions(command: Command): Command {
  return command
    .addOption(new Option('-f, --format <format>', 'output format').choices(OUTPUT_FORMATS).default('text'))
    .option('-o, --output-file <file>', 'write the report to this file instead of stdout')
    .option('--ignore <glob>', 'skip files matching this gitignore-style glob, relative to the working directory (repeatable)', collect, [])
    .option('--verbose', 'print timings, and a stack trace on internal errors', false);
}
