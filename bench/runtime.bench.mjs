#!/usr/bin/env node
// Seal+open round trips per second: our continuation (AES-256-GCM, HKDF keys, bind digest of the
// arguments) next to the SDK's createRequestStateCodec (HMAC-SHA-256, signed not encrypted) on the same
// payloads. Goal: at least half the SDK's rate while adding encryption.
// Each op is one seal followed by one open of the result (a full MRTR round's worth of state work).
// Rounds alternate between the two so machine load hits both alike; the median round counts. CPU time per
// op (process-wide, so WebCrypto's thread-pool work counts) is printed too: it moves less with load.
// BENCH_ROUNDS / BENCH_ROUND_MS override the 9 rounds of 600 ms.
import { tsImport } from 'tsx/esm/api';
import os from 'node:os';
import { createRequestStateCodec } from '@modelcontextprotocol/server';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 600);
const GOAL = 0.5;

const runtime = await tsImport('../src/runtime/mrtr-continuation.ts', import.meta.url);
const KEY = 'bench-secret-of-at-least-thirty-two-bytes!';

// One authenticated tools/call, a refund flow on its second question, with the first answer carried.
const args = { orderId: 'ord_8f14e45fceea167a5a36dedd4bea2543', amount: 129.5, currency: 'EUR', note: 'damaged on arrival' };
const carried = { confirm: { confirm: true, reason: 'damaged', notify: ['email', 'sms'] } };
let wire;
const ctx = {
  mcpReq: { method: 'tools/call', requestState: () => wire },
  http: { authInfo: { clientId: 'client-42', token: 't', scopes: [], extra: { sub: 'user-7' } } },
};

const ours = runtime.createContinuation({ keys: [KEY], audience: 'shop' });
async function oursOp() {
  const bind = runtime.bindRequest(ctx, 'refund', { ...args }); // per request, as a handler builds it
  wire = await ours.seal(ctx, { step: 'amount', bind, ...carried });
  const opened = await ours.open(ctx, bind);
  if (opened?.step !== 'amount') throw new Error('continuation round trip failed');
}

// The SDK codec as its docs configure it: bind = method + principal; the tool name rides in the payload.
const codec = createRequestStateCodec({
  key: KEY,
  ttlSeconds: 300,
  bind: (c) => `${c.mcpReq.method}\0${c.http?.authInfo?.clientId ?? ''}\0${c.http?.authInfo?.extra?.sub ?? ''}`,
});
async function sdkOp() {
  const state = await codec.mint({ tool: 'refund', step: 'amount', ...carried }, ctx);
  const payload = await codec.verify(state, ctx);
  if (payload.step !== 'amount') throw new Error('codec round trip failed');
}

/** Wall-clock ops/s, and CPU microseconds per op (all threads: WebCrypto runs on libuv's pool). */
async function measure(op, ms) {
  let n = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 50; i++) await op();
    n += 50;
    elapsed = performance.now() - start;
  }
  const used = process.cpuUsage(cpu);
  return { opsPerSecond: (n * 1000) / elapsed, cpuMicrosPerOp: (used.user + used.system) / n };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await measure(oursOp, 300); // warm up both (JIT, key derivation)
await measure(sdkOp, 300);
const rounds = [];
for (let r = 0; r < ROUNDS; r++) {
  const ours = await measure(oursOp, ROUND_MS);
  const sdk = await measure(sdkOp, ROUND_MS);
  rounds.push({ ours, sdk, wallRatio: ours.opsPerSecond / sdk.opsPerSecond, cpuRatio: sdk.cpuMicrosPerOp / ours.cpuMicrosPerOp });
}
const ratio = median(rounds.map((r) => r.wallRatio));
const cpuRatio = median(rounds.map((r) => r.cpuRatio));
const fmt = (x) => Math.round(x).toLocaleString('en-US');
const line = (label, side) =>
  `  ${label} ${fmt(median(rounds.map((r) => r[side].opsPerSecond)))} ops/s, ${median(rounds.map((r) => r[side].cpuMicrosPerOp)).toFixed(0)} µs CPU/op`;
console.log(`seal+open round trips (median of ${ROUNDS} alternating rounds of ${ROUND_MS} ms; load average ${os.loadavg()[0].toFixed(1)})`);
console.log(line('mrtr-continuation (AES-256-GCM + args digest):', 'ours'));
console.log(line('SDK createRequestStateCodec (HMAC, signed):   ', 'sdk'));
console.log(`  ratio ours/SDK, ops/s: ${ratio.toFixed(2)} (goal >= ${GOAL}); per round ${rounds.map((r) => r.wallRatio.toFixed(2)).join(' ')}`);
console.log(`  ratio ours/SDK, by CPU per op (less sensitive to machine load): ${cpuRatio.toFixed(2)}`);
console.log(`  state size: ours ${wire.length} chars, SDK ${(await codec.mint({ tool: 'refund', step: 'amount', ...carried }, ctx)).length} chars`);
if (ratio < GOAL) {
  console.log('  GOAL MISSED');
  process.exitCode = 1;
}
