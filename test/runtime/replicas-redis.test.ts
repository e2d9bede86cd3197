// Two replica processes behind one real Redis (started here): 1,000 concurrent replays of the same
// final round, spread over both, produce exactly one side effect; with the store killed mid-run every
// call fails closed and nothing runs twice.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledScript } from '../compiled.js';
import { KEY_A, KEY_B } from './helpers.js';
import { startRedis, type RedisServer } from './redis-server.js';

// compiled to JS once per run (test/global-setup.ts): the replicas start in plain node, not under tsx
const REPLICA = compiledScript(fileURLToPath(new URL('./claim-replica.ts', import.meta.url)));

interface Replica {
  name: string;
  url: string;
  process: ChildProcess;
}

let redis: RedisServer;
let dir: string;
let effectsFile: string;
const replicas: Replica[] = [];

function startReplica(name: string, env: Record<string, string>): Promise<Replica> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [REPLICA], {
      env: { ...process.env, ...env, REPLICA_NAME: name, EFFECTS_FILE: effectsFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ name, url: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`, process: child });
    });
    child.once('exit', (code) => reject(new Error(`replica ${name} exited (${code}) before listening:\n${err}`)));
  });
}

async function post(replica: Replica, path: string, body: unknown): Promise<{ status: number; outcome?: string; state?: string }> {
  const res = await fetch(`${replica.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: res.status, ...((await res.json()) as { outcome?: string; state?: string }) };
}

function effects(): string[] {
  return readFileSync(effectsFile, 'utf8').split('\n').filter(Boolean);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mrtr-replicas-'));
  effectsFile = join(dir, 'effects.log');
  writeFileSync(effectsFile, '');
  redis = await startRedis();
  const env = { NODE_ENV: 'production', MRTR_STATE_KEYS: `${KEY_A},${KEY_B}`, MRTR_CLAIMS_REDIS_URL: redis.url };
  replicas.push(await startReplica('A', env), await startReplica('B', env));
});

afterAll(async () => {
  for (const r of replicas) r.process.kill('SIGTERM');
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('two replicas sharing a real Redis claim store', () => {
  it('1,000 concurrent replays of one final round over both replicas: exactly one side effect', async () => {
    const args = { orderId: 'o-1000', amount: 25 };
    const { state } = await post(replicas[0]!, '/ask', { args });
    const outcomes = await Promise.all(Array.from({ length: 1000 }, (_, i) => post(replicas[i % 2]!, '/final', { state, args })));
    const count = (outcome: string) => outcomes.filter((o) => o.outcome === outcome).length;
    expect({ done: count('done'), replayed: count('already completed') }).toEqual({ done: 1, replayed: 999 });
    expect(effects()).toHaveLength(1);
    expect(effects()[0]).toMatch(/^[AB] refund \{"orderId":"o-1000","amount":25\}$/);
    // Both replicas took part, and each refused replays: the claim spans processes.
    const refusedBy = new Set(outcomes.map((o, i) => (o.outcome === 'already completed' ? i % 2 : -1)).filter((i) => i >= 0));
    expect(refusedBy).toEqual(new Set([0, 1]));
  });

  it('distinct calls each complete once, whichever replica gets the final round', async () => {
    const before = effects().length;
    const calls = await Promise.all(Array.from({ length: 50 }, async (_, i) => ({ args: { orderId: `o-${i}`, amount: i }, ...(await post(replicas[i % 2]!, '/ask', { args: { orderId: `o-${i}`, amount: i } })) })));
    const finals = await Promise.all(calls.flatMap((c, i) => [post(replicas[(i + 1) % 2]!, '/final', c), post(replicas[i % 2]!, '/final', c)]));
    expect(finals.filter((o) => o.outcome === 'done')).toHaveLength(50);
    expect(effects().length - before).toBe(50);
  });

  it('the store killed mid-run: calls fail closed on both replicas, and nothing runs twice', async () => {
    const args = { orderId: 'o-kill', amount: 1 };
    const states = await Promise.all(Array.from({ length: 40 }, (_, i) => post(replicas[i % 2]!, '/ask', { args })));
    const before = effects().length;
    const racing = Promise.all(states.flatMap((s, i) => [post(replicas[i % 2]!, '/final', { state: s.state, args }), post(replicas[(i + 1) % 2]!, '/final', { state: s.state, args })]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await redis.kill();
    const raced = await racing;
    const after = await Promise.all(states.map((s, i) => post(replicas[i % 2]!, '/final', { state: s.state, args })));
    expect(after.every((o) => o.status === 503 && o.outcome === 'refused')).toBe(true);
    const completed = raced.filter((o) => o.outcome === 'done').length;
    expect(effects().length - before).toBe(completed);
    expect(completed).toBeLessThanOrEqual(states.length); // at most one completion per state
    for (let i = 0; i < states.length; i++) {
      const pair = [raced[2 * i]!, raced[2 * i + 1]!];
      expect(pair.filter((o) => o.outcome === 'done').length).toBeLessThanOrEqual(1);
    }
  });
});
