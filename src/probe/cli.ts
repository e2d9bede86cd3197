/**
 * `mrtr-port probe` behind the command line: loaded only when a probe runs (it loads the MCP client),
 * so `--help` and `--version` stay fast. Arguments → options, the notice about effects, the run, the
 * report to stdout or `--output-file`, the exit code (0 nothing failed, 1 a check failed, 2 otherwise).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXIT_CODES, UsageError } from '../cli/exit-codes.js';
import type { CliIo } from '../cli/io.js';
import { toolVersion } from '../cli/version.js';
import { ProbeUnreachableError, ProbeUsageError } from './errors.js';
import { parseProbeArguments, type RawProbeArguments } from './options.js';
import { effectsNotice, probeTextReport } from './reporters/text.js';
import { probeSarifReport } from './reporters/sarif.js';
import { runProbe } from './run.js';

export type ProbeFormat = 'text' | 'json' | 'sarif';

export async function runProbeCommand(raw: RawProbeArguments, format: ProbeFormat, outputFile: string | undefined, io: CliIo): Promise<void> {
  let report;
  try {
    const options = parseProbeArguments(raw);
    // before anything is sent: what the run may do to the server
    io.stderr(`mrtr-port probe: ${effectsNotice(options.allowEffects)}\n`);
    report = await runProbe(options);
  } catch (error) {
    if (error instanceof ProbeUsageError || error instanceof ProbeUnreachableError) throw new UsageError(error.message);
    throw error;
  }
  const output =
    format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : format === 'sarif' ? probeSarifReport(report, toolVersion()) : probeTextReport(report);
  if (outputFile !== undefined) {
    const target = path.resolve(io.cwd, outputFile);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, output, 'utf8');
  } else {
    io.stdout(output);
  }
  io.exitCode = report.summary.fail > 0 ? EXIT_CODES.findings : EXIT_CODES.ok;
}
