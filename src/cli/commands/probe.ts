/**
 * `mrtr-port probe <url>`: black-box MRTR checks of a running server over Streamable HTTP (MCP
 * 2026-07-28), whatever it is written in. Only the option parsing lives here; the probe itself (and the
 * MCP client it loads) is imported when the command runs.
 */
import { Command, Option } from 'commander';
import type { CliIo } from '../io.js';
import type { CallToken } from '../../probe/options.js';

interface ProbeCliOptions {
  replica: string[];
  header: string[];
  ttlWait?: string;
  answers: string;
  allowEffects: boolean;
  format: 'text' | 'json' | 'sarif';
  outputFile?: string;
  timeout?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

const PROBE_HELP = `
Examples:
  mrtr-port probe https://staging-a.example.com/mcp --replica https://staging-b.example.com/mcp \\
    --header "Authorization: Bearer $TOKEN" --call delete_file --args '{"path":"/tmp/probe.txt"}' --ttl-wait 310

Probe exit codes: 0 no check failed, 1 a check failed, 2 bad arguments or a server that does not answer in 2026-07-28.`;

export function probeCommand(io: CliIo): Command {
  // --call/--prompt/--resource/--args in the order given: each --args belongs to the call before it
  const tokens: CallToken[] = [];
  const token = (flag: CallToken['flag']) => (value: string) => {
    tokens.push({ flag, value });
    return undefined;
  };
  return new Command('probe')
    .description('check a running MCP server from the outside: replicas, tampered, foreign, expired, replayed and declined rounds (Streamable HTTP, 2026-07-28)')
    .argument('<url>', "the server's MCP endpoint, e.g. https://host/mcp")
    .option('--replica <url>', 'another replica of the same deployment: retries go to the next one (repeatable)', collect, [])
    .option('--call <tool>', 'a tool to call (repeatable); its --args follow it', token('call'))
    .option('--prompt <name>', 'a prompt to get (repeatable); its --args follow it', token('prompt'))
    .option('--resource <uri>', 'a resource to read (repeatable)', token('resource'))
    .option('--args <json>', 'arguments of the --call or --prompt just before, as a JSON object', token('args'))
    .option('--header <header>', '"Name: value" sent with every request, e.g. an Authorization header (repeatable)', collect, [])
    .option('--ttl-wait <seconds>', "retry an old state after this long (longer than the server's state lifetime) for the expired check")
    .addOption(new Option('--answers <which>', 'which elicitation answers the probe may give (accept completes the call once)').choices(['accept', 'decline', 'cancel', 'all']).default('all'))
    .option('--allow-effects', 'also run what may repeat a side effect: replay-final, and attacks that answer accept', false)
    .option('--timeout <seconds>', 'per-request timeout (default 30)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json', 'sarif']).default('text'))
    .option('-o, --output-file <file>', 'write the report to this file instead of stdout')
    .addHelpText('after', PROBE_HELP)
    .action(async (url: string, options: ProbeCliOptions) => {
      const { runProbeCommand } = await import('../../probe/cli.js');
      await runProbeCommand(
        {
          url,
          replicas: options.replica,
          tokens,
          headers: options.header,
          ttlWait: options.ttlWait,
          answers: options.answers,
          allowEffects: options.allowEffects,
          timeout: options.timeout,
        },
        options.format,
        options.outputFile,
        io,
      );
    });
}
