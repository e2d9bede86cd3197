/**
 * Starts the probe's fixture servers (`fixtures/probe/*.ts`, plain node:http, no MCP SDK) as replica
 * processes of `fixtures/probe/host.ts`: one process serves every fixture at `/<name>`, so two processes
 * are two replicas of each. They share a state key, a claims folder and an effects file.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../e2e/harness.js';

const HOST_SCRIPT = join(REPO_ROOT, 'fixtures/probe/host.ts');
const START_TIMEOUT_MS = 60_000;

export interface FixtureHost {
  readonly name: string;
  url(fixture: string): string;
  stop(): Promise<void>;
}

export interface FixtureFleet {
  readonly dir: string;
  readonly hosts: readonly FixtureHost[];
  /** Every side effect recorded so far, by kind. */
  effects(): { kind: string; detail: Record<string, unknown>; replica: string }[];
  stop(): Promise<void>;
}

export async function startFixtureFleet(fixtures: readonly string[], replicas: readonly string[], ttlSeconds: number): Promise<FixtureFleet> {
  mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(REPO_ROOT, '.tmp', 'probe-'));
  const claims = join(dir, 'claims');
  mkdirSync(claims);
  const effectsFile = join(dir, 'effects.jsonl');
  writeFileSync(effectsFile, '');
  const env = {
    PROBE_FIXTURES: JSON.stringify(fixtures),
    PROBE_STATE_KEY: 'probe-fixture-key-0123456789abcdef-0123456789',
    PROBE_STATE_TTL_SECONDS: String(ttlSeconds),
    PROBE_CLAIMS_DIR: claims,
    PROBE_EFFECTS_FILE: effectsFile,
  };
  const hosts = await Promise.all(replicas.map((name) => startHost(name, env)));
  return {
    dir,
    hosts,
    effects: () =>
      readFileSync(effectsFile, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { kind: string; detail: Record<string, unknown>; replica: string }),
    stop: async () => {
      await Promise.all(hosts.map((h) => h.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function startHost(name: string, env: Record<string, string>): Promise<FixtureHost> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOST_SCRIPT], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, PROBE_REPLICA: name },
    stdio: ['pipe', 'pipe', 'pipe'], // stdin is the host's lifeline to this process
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((ready, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`fixture host ${name} did not start within ${START_TIMEOUT_MS} ms:\n${stderr}`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`fixture host ${name} exited with ${code} before listening:\n${stderr}`));
    });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /LISTENING (\d+)/.exec(stdout);
      if (match === null) return;
      clearTimeout(timer);
      ready({
        name,
        url: (fixture) => `http://127.0.0.1:${match[1]}/${fixture}`,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}
