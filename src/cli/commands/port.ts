/** `mrtr-port port [paths...]`: rewrite legacy server→client requests into MRTR, in place (or as a diff). */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command, Option } from 'commander';
import { formatPortText } from '../../port/format.js';
import { portExitCode, PortUsageError, runPort } from '../../port/index.js';
import { UsageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';

interface PortCliOptions {
  dryRun: boolean;
  skipV1: boolean;
  codec: 'aead' | 'sdk';
  roots: 'config' | 'ask';
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
    .addOption(new Option('--codec <codec>', 'how requestState is sealed: our AES-GCM helper, or the SDK HMAC codec').choices(['aead', 'sdk']).default('aead'))
    .addOption(new Option('--roots <mode>', 'listRoots(): roots from MCP_ALLOWED_ROOTS config, or ask the client with inputRequired.listRoots()').choices(['config', 'ask']).default('config'))
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('-o, --output-file <file>', 'write the report to this file instead of stdout')
    .option('--ignore <glob>', 'skip files matching this gitignore-style glob, relative to the working directory (repeatable)', collect, [])
    .option('--verbose', 'print a stack trace on internal errors', false)
    .action(async (paths: string[], options: PortCliOptions) => {
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
          codec: options.codec,
          roots: options.roots,
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
      if (options.outputFile !== undefined) {
        const target = path.resolve(io.cwd, options.outputFile);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, output, 'utf8');
      } else {
        io.stdout(output);
      }
      io.exitCode = portExitCode(result);
    });
}
