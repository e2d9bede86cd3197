#!/usr/bin/env node
/**
 * The `mrtr-port` command line: a thin commander shell over the programmatic API (src/index.ts).
 * One file per command under ./commands; register a new one by adding its factory to COMMANDS.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { installCompileCache } from '../compile-cache.cjs';
import { analyzeCommand } from './commands/analyze.js';
import { checkCommand } from './commands/check.js';
import { portCommand } from './commands/port.js';
import { probeCommand } from './commands/probe.js';
import { EXIT_CODES, OutputError, UsageError } from './exit-codes.js';
import { processIo, type CliIo } from './io.js';
import { toolVersion } from './version.js';

/** Subcommands, in help order. */
const COMMANDS: ReadonlyArray<(io: CliIo) => Command> = [
  analyzeCommand,
  checkCommand,
  portCommand,
  probeCommand,
];

const EXIT_CODE_HELP = `
Exit codes:
  0  analyze: report printed; check: nothing left to port, no marker left
  1  check: legacy requests to port, @mrtr-port-todo markers left, or a file that could not be parsed
  2  bad arguments, a named path that is missing or holds no source files, an unusable --output-file,
     a report that could not be written (closed pipe, full disk), or an internal error
     port: also uncommitted git changes in files it would rewrite (without --force)`;

export function buildProgram(io: CliIo): Command {
  const program = new Command('mrtr-port')
    .description('Port MCP servers from push-style server→client requests to Multi Round-Trip Requests (MCP 2026-07-28).')
    .version(toolVersion())
    .addHelpText('after', EXIT_CODE_HELP);
  for (const make of COMMANDS) {
    const command = make(io).addHelpText('after', EXIT_CODE_HELP);
    program.addCommand(command);
  }
  // Commander exits on its own by default; ours must return codes (2 for any usage error) and write through io.
  for (const command of [program, ...program.commands]) {
    command
      .exitOverride()
      .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
      .showHelpAfterError('(run with --help for usage)');
  }
  return program;
}

/** Runs the CLI with these arguments (without `node` and the script); resolves to the exit code. */
export async function main(argv: readonly string[] = process.argv.slice(2), io: CliIo = processIo()): Promise<number> {
  const verbose = argv.includes('--verbose');
  try {
    let code: number;
    try {
      await buildProgram(io).parseAsync([...argv], { from: 'user' });
      code = io.exitCode;
    } catch (error) {
      if (!(error instanceof CommanderError)) throw error;
      // --help and --version end with 0; everything else commander rejects is a usage error.
      code = error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    }
    await flushStdout(io);
    return code;
  } catch (error) {
    if (error instanceof UsageError || error instanceof OutputError) {
      io.stderr(`mrtr-port: ${error.message}\n`);
      return error.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`mrtr-port: internal error: ${message}\n`);
    if (verbose && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    else io.stderr('(run with --verbose for the stack trace)\n');
    return EXIT_CODES.internal;
  }
}

/** Waits until stdout took everything; a closed pipe or a full disk becomes an `OutputError`. */
async function flushStdout(io: CliIo): Promise<void> {
  try {
    await io.flush?.();
  } catch (error) {
    throw new OutputError('stdout', error);
  }
}

/** True when this module is the program node started (directly, through an npm bin symlink, or under tsx). */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return pathToFileURL(realpathSync(script)).href === import.meta.url;
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  // before anything heavy loads: the compiler and ts-morph compile from V8's code cache (see compile-cache.cjs)
  installCompileCache();
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`mrtr-port: internal error: ${String(error)}\n`);
      process.exitCode = EXIT_CODES.internal;
    },
  );
}
