/**
 * `mrtr-port probe` as a user runs it: exit codes (0 nothing failed, 1 a check failed, 2 bad arguments
 * or an unreachable server), the three formats (SARIF checked against the official OASIS schema), the
 * notice about effects before anything is sent, and `--help` that does not load the MCP client.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { CHECK_IDS, type ProbeReport } from '../../src/probe/model.js';
import { tempDir } from '../cli/helpers.js';
import { REPO_ROOT } from '../e2e/harness.js';
import { startFixtureFleet, type FixtureFleet } from './fixture-hosts.js';

const require = createRequire(import.meta.url);

interface Ran {
  cwd: string;
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr writes in the order they happened. */
  order: ('stdout' | 'stderr')[];
}

async function probe(...argv: string[]): Promise<Ran> {
  const cwd = tempDir('mrtr-probe-cli-');
  const ran: Ran = { cwd, code: 0, stdout: '', stderr: '', order: [] };
  const io: CliIo = {
    cwd: ran.cwd,
    stdout: (t) => void ((ran.stdout += t), ran.order.push('stdout')),
    stderr: (t) => void ((ran.stderr += t), ran.order.push('stderr')),
    stderrIsTTY: false,
    exitCode: 0,
  };
  ran.code = await main(['probe', ...argv], io);
  return ran;
}

let fleet: FixtureFleet;
const deleteCall = ['--call', 'delete_file', '--args', '{"path":"/srv/cli/report.csv"}'];

beforeAll(async () => {
  fleet = await startFixtureFleet(['sound', 'unsigned-state'], ['A'], 300);
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
});

describe('mrtr-port probe', () => {
  it('exits 0 on a sound server; --format json is the documented report', async () => {
    const r = await probe(fleet.hosts[0].url('sound'), ...deleteCall, '--format', 'json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as ProbeReport;
    expect(Object.keys(report)).toEqual(['tool', 'version', 'command', 'target', 'options', 'calls', 'summary']);
    expect(report).toMatchObject({ tool: 'mrtr-port', version: 1, command: 'probe', target: { url: fleet.hosts[0].url('sound'), replicas: [] } });
    expect(report.calls[0].call).toEqual({ kind: 'tool', name: 'delete_file', arguments: { path: '/srv/cli/report.csv' } });
    expect(report.calls[0].checks.map((c) => c.id)).toEqual([...CHECK_IDS]);
    for (const check of report.calls[0].checks) {
      expect(Object.keys(check)).toEqual(expect.arrayContaining(['id', 'status', 'summary', 'evidence']));
      expect(['pass', 'fail', 'skip']).toContain(check.status);
    }
    const roundTrip = report.calls[0].checks[0];
    expect(roundTrip.evidence.exchanges.map((e) => e.response.kind)).toEqual(['input_required', 'complete']);
    expect(roundTrip.evidence.exchanges[1].request.params).toMatchObject({ inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
  });

  it('exits 1 when a check fails; the text report names it and shows the request and the response', async () => {
    const r = await probe(fleet.hosts[0].url('unsigned-state'), ...deleteCall);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^mrtr-port probe http:\/\/127\.0\.0\.1:\d+\/unsigned-state\n/);
    expect(r.stdout).toMatch(/\n {2}fail {2}tamper +accepted a state with/);
    expect(r.stdout).toMatch(/→ tools\/call to http:\/\/127\.0\.0\.1:\d+\/unsigned-state: name="delete_file"/);
    expect(r.stdout).toMatch(/← HTTP 200 complete: "Kept \/srv\/cli\/report\.csv \(decline\)"/);
    expect(r.stdout).toMatch(/\n1 call, 15 checks: \d+ pass, 1 fail, \d+ skip\.\n$/);
  });

  it('says what it may do to the server before it sends anything, and the text report repeats it', async () => {
    const quiet = await probe(fleet.hosts[0].url('sound'), ...deleteCall);
    expect(quiet.order[0]).toBe('stderr');
    expect(quiet.stderr).toMatch(/^mrtr-port probe: no side effect is repeated on purpose/);
    const bold = await probe(fleet.hosts[0].url('sound'), ...deleteCall, '--allow-effects');
    expect(bold.order[0]).toBe('stderr');
    expect(bold.stderr).toMatch(/^mrtr-port probe: --allow-effects: .*a side effect of each call may run more than once/);
    expect(bold.stdout.split('\n').slice(0, 4).join('\n')).toContain('--allow-effects: attacks answer accept');
    expect(bold.code).toBe(0);
  });

  it('--format sarif --output-file writes a log the official SARIF 2.1.0 schema accepts, one rule per check', async () => {
    const r = await probe(fleet.hosts[0].url('unsigned-state'), ...deleteCall, '-f', 'sarif', '-o', 'out/probe.sarif');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const log = JSON.parse(readFileSync(path.join(r.cwd, 'out/probe.sarif'), 'utf8')) as {
      runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; level: string; webRequest: { target: string } }[] }[];
    };
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0].tool.driver.rules.map((rule) => rule.id)).toEqual(CHECK_IDS.map((id) => `mrtr-probe/${id}`));
    expect(log.runs[0].results.map((x) => [x.ruleId, x.level])).toEqual([['mrtr-probe/tamper', 'error']]);
    expect(log.runs[0].results[0].webRequest.target).toBe(fleet.hosts[0].url('unsigned-state'));
  });

  it.each([
    [['not a url', '--call', 'x'], /the target url "not a url" is not a URL/],
    [['ftp://host/mcp', '--call', 'x'], /must be an http:\/\/ or https:\/\/ URL/],
    [['http://127.0.0.1:9/mcp'], /name at least one --call/],
    [['http://127.0.0.1:9/mcp', '--args', '{}', '--call', 'x'], /--args must follow the --call or --prompt it belongs to/],
    [['http://127.0.0.1:9/mcp', '--call', 'x', '--args', '{oops'], /--args of tool x is not JSON/],
    [['http://127.0.0.1:9/mcp', '--call', 'x', '--args', '[1]'], /--args of tool x must be a JSON object/],
    [['http://127.0.0.1:9/mcp', '--call', 'x', '--args', '{}', '--args', '{}'], /--args given twice for tool x/],
    [['http://127.0.0.1:9/mcp', '--resource', 'r://a', '--args', '{}'], /a resource takes no arguments/],
    [['http://127.0.0.1:9/mcp', '--prompt', 'p', '--args', '{"n":1}'], /prompt arguments are strings/],
    [['http://127.0.0.1:9/mcp', '--call', 'x', '--header', 'no colon'], /--header "no colon" must look like "Name: value"/],
    [['http://127.0.0.1:9/mcp', '--call', 'x', '--ttl-wait', '-3'], /--ttl-wait must be a number of seconds/],
    [['http://127.0.0.1:9/mcp', '--call', 'x', '--answers', 'maybe'], /argument 'maybe' is invalid/],
    [['http://127.0.0.1:9/mcp', '--call', 'x', '--replica', 'http://127.0.0.1:9/mcp'], /is the target itself/],
  ])('exits 2 on bad arguments: %j', async (argv, message) => {
    const r = await probe(...argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('exits 2 when the target or a replica does not answer, or a named tool does not exist', async () => {
    const nobody = `http://127.0.0.1:${await closedPort()}/mcp`;
    const down = await probe(nobody, ...deleteCall);
    expect(down.code).toBe(2);
    expect(down.stderr).toContain(`mrtr-port: ${nobody} did not open an MCP 2026-07-28 connection: fetch failed (ECONNREFUSED)`);
    const replicaDown = await probe(fleet.hosts[0].url('sound'), '--replica', nobody, ...deleteCall);
    expect(replicaDown.code).toBe(2);
    expect(replicaDown.stderr).toContain(`mrtr-port: ${nobody} did not open`);
    const typo = await probe(fleet.hosts[0].url('sound'), '--call', 'delete_fil', '--args', '{"path":"/x"}');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/the server lists no tool named "delete_fil" \(tools\/list: delete_file, archive_file, book_table\)/);
  });

  it('sends --header on every request', async () => {
    const r = await probe(fleet.hosts[0].url('sound'), ...deleteCall, '--header', 'X-Probe: yes', '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).calls[0].checks[0].status).toBe('pass');
  });
});

describe('mrtr-port probe --help (spawned)', () => {
  it('prints the probe options and exits 0 without loading the MCP client; a run does load it', () => {
    const dir = tempDir('mrtr-probe-hook-');
    // a resolve hook that logs every module URL node resolves
    writeFileSync(
      path.join(dir, 'hooks.mjs'),
      "import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(process.env.PROBE_HOOK_LOG, r.url + '\\n'); return r; }\n",
    );
    writeFileSync(path.join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister(new URL('./hooks.mjs', import.meta.url));\n");
    const tsx = pathToFileURL(require.resolve('tsx')).href;
    const run = (log: string, ...args: string[]) =>
      spawnSync(process.execPath, ['--import', tsx, '--import', pathToFileURL(path.join(dir, 'register.mjs')).href, path.join(REPO_ROOT, 'src/cli/main.ts'), ...args], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, PROBE_HOOK_LOG: path.join(dir, log) },
      });
    const help = run('help.log', 'probe', '--help');
    expect(help.status).toBe(0);
    for (const option of ['--replica', '--call', '--args', '--header', '--ttl-wait', '--answers', '--allow-effects', '--format']) expect(help.stdout).toContain(option);
    const helpLoaded = readFileSync(path.join(dir, 'help.log'), 'utf8');
    expect(helpLoaded).toContain('src/cli/commands/probe.ts');
    expect(helpLoaded).not.toContain('@modelcontextprotocol/client');
    expect(helpLoaded).not.toContain('src/probe/');
    const ranProbe = run('run.log', 'probe', 'http://127.0.0.1:9/mcp', '--call', 'x');
    expect(ranProbe.status).toBe(2);
    expect(readFileSync(path.join(dir, 'run.log'), 'utf8')).toContain('@modelcontextprotocol/client');
  });
});

/** A loopback port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  await new Promise((closed) => server.close(closed));
  return port;
}

/** The official OASIS SARIF 2.1.0 schema (rtm.5), loaded the way test/cli/reporters.test.ts loads it. */
function sarifValidator() {
  const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<string, unknown>;
  const { $schema: _draft, id, ...rest } = schema;
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  (addFormatsModule as unknown as (a: Ajv) => Ajv)(ajv);
  return ajv.compile({ $id: id as string, ...rest });
}
