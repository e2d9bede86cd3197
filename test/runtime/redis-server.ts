// A real Redis for the claim-store tests: Debian's redis-server on a free loopback port, no persistence
// unless asked, stopped by the test that started it. Missing redis-server fails the test (never a skip):
// .ci/run installs it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** SIGKILL: the store dies mid-run, as a crashed or partitioned Redis would. */
  kill(): Promise<void>;
  /** Starts a new redis-server on the same port and data directory (what persistence kept, it has). */
  restart(): Promise<void>;
  /** SIGTERM, wait for the exit, remove the data directory. */
  stop(): Promise<void>;
}

const READY = /Ready to accept connections/;
const START_TIMEOUT_MS = 15_000;

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Starts redis-server; `persistent` turns on an fsync-always append-only file (claims survive a kill). */
export async function startRedis(options: { persistent?: boolean } = {}): Promise<RedisServer> {
  if (!redisServerInstalled()) {
    throw new Error('redis-server is not installed: run `apt-get update && apt-get install -y redis-server` (.ci/run does)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-redis-'));
  const args = (port: number): string[] => [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '',
    ...(options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
  ];
  let child: ChildProcess | undefined;
  let port = 0;
  for (let attempt = 1; child === undefined; attempt++) {
    port = await freePort();
    try {
      child = await launch(args(port));
    } catch (error) {
      if (attempt >= 3) throw error; // another process took the port between the probe and the bind
    }
  }
  let current: ChildProcess = child;
  const exited = (proc: ChildProcess): Promise<void> =>
    proc.exitCode !== null || proc.signalCode !== null ? Promise.resolve() : new Promise((resolve) => proc.once('exit', () => resolve()));
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      current.kill('SIGKILL');
      await exited(current);
    },
    async restart() {
      current = await launch(args(port));
    },
    async stop() {
      current.kill('SIGTERM');
      await exited(current);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function launch(args: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (READY.test(output)) {
        clearTimeout(timer);
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code ?? signal}) before it was ready:\n${output}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** A loopback port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
