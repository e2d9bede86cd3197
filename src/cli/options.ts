/** Options shared by the commands that report: `--format`, `--output-file`, `--ignore`, `--verbose`; and option parsers. */
import { Command, InvalidArgumentError, Option } from 'commander';
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

const SIZE_UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };

/** `4194304`, `512k`, `8M`, `1.5MiB` → bytes (binary units); commander shows the error as a usage error. */
export function parseSize(value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? SIZE_UNITS[m[2].toLowerCase()] : undefined;
  if (!m || unit === undefined || Number(m[1]) <= 0) throw new InvalidArgumentError('expected a size in bytes, or with a unit: 512k, 8M');
  return Math.floor(Number(m[1]) * unit);
}
