/** `mrtr-port port [paths...]`: rewrite legacy server→client requests into MRTR, in place (or as a diff). */
import { Command, Option } from 'commander';
import { DEFAULT_MAX_FILE_SIZE, formatSize } from '../../port/read.js';
import { UsageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { parseSize } from '../options.js';
import { deliverReport } from '../report-output.js';

interface PortCliOptions {
  dryRun: boolean;
  skipV1: boolean;
  force: boolean;
  maxFileSize: number;
  codec: 'aead' | 'sdk';
  roots: 'config' | 'ask';
  claims: 'memory' | 'redis';
  format: 'text' | 'json';
  outputFile?: string;
  ignore: string[];
  verbose: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function portCommand(io: CliIo): Command {
  return new Command('port')
    .description('port legacy elicitation/sampling/roots requests to Multi Round-Trip Requests; SDK v1 files are migrated to v2 first')
    .argument('[paths...]', 'files or folders to port', ['.'])
    .option('--dry-run', 'print a unified diff and write nothing', false)
    .option('--skip-v1', 'leave SDK v1 files alone (one report line each) instead of migrating them with @modelcontextprotocol/codemod', false)
    .option('--force', 'write read-only files (keeping their mode) and files with uncommitted git changes', false)
    .option('--max-file-size <size>', `skip files larger than this (bytes, or with k/M: 512k, 8M)`, parseSize, DEFAULT_MAX_FILE_SIZE)
    .addOption(new Option('--codec <codec>', 'how requestState is sealed: our AES-GCM helper, or the SDK HMAC codec').choices(['aead', 'sdk']).default('aead'))
    .addOption(
      new Option('--claims <store>', 'where the ported code claims each final round (at most once): this process\'s memory, or a Redis every replica shares (MRTR_CLAIMS_REDIS_URL)')
        .choices(['memory', 'redis'])
        .default('memory'),
    )
    .addOption(new Option('--roots <mode>', 'listRoots(): roots from MCP_ALLOWED_ROOTS config, or ask the client with inputRequired.listRoots()').choices(['config', 'ask']).default('config'))
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('-o, --output-file <file>', 'write the report to this file instead of stdout')
    .option('--ignore <glob>', 'skip files matching this gitignore-style glob, relative to the working directory (repeatable)', collect, [])
    .option('--verbose', 'print a stack trace on internal errors', false)
    .addHelpText('after', `\n--max-file-size defaults to ${formatSize(DEFAULT_MAX_FILE_SIZE)}.`)
    .action(async (paths: string[], options: PortCliOptions) => {
      // the runner loads when the command runs: --help and --version stay light
      const [{ formatPortText }, { portExitCode, PortUsageError, runPort }] = await Promise.all([import('../../port/format.js'), import('../../port/index.js')]);
      const progress = io.stderrIsTTY ? (message: string) => io.stderr(`\r\x1b[Kmrtr-port: ${message}`) : undefined;
      let shown = false;
      let result;
      try {
        result = await runPort({
          cwd: io.cwd,
          paths,
          ignore: options.ignore,
          dryRun: options.dryRun,
          skipV1: options.skipV1,
          force: options.force,
          maxFileSize: options.maxFileSize,
          reportFile: options.outputFile,
          codec: options.codec,
          roots: options.roots,
          claims: options.claims,
          onProgress: progress
            ? (message) => {
                shown = true;
                progress(message);
              }
            : undefined,
        });
      } catch (error) {
        if (error instanceof PortUsageError) throw new UsageError(error.message);
        throw error;
      } finally {
        if (shown) io.stderr('\r\x1b[K');
      }
      const output = options.format === 'json' ? JSON.stringify(result, null, 2) + '\n' : formatPortText(result);
      io.exitCode = portExitCode(result);
      deliverReport(io, options.outputFile, output);
    });
}
