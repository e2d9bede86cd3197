// One replica of a server whose final round has a side effect, for replicas-redis.test.ts. It is
// configured only by the environment a deployment sets (MRTR_STATE_KEYS, MRTR_CLAIMS_REDIS_URL,
// NODE_ENV=production), uses the default continuation and the generated Redis claim store, and appends
// each side effect to EFFECTS_FILE (shared by the replicas, so the test counts them across processes).
//   POST /ask    {args}         -> {state}               the round that asks (seals)
//   POST /final  {state, args}  -> 200 done | 409 already completed | 400 invalid state | 503 refused
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { assertContinuationConfigured, bindRequest, claimOnce, continuation } from '../../src/runtime/mrtr-continuation.js';
import { claimStore } from '../../src/runtime/mrtr-claims-redis.js';

const effectsFile = process.env.EFFECTS_FILE;
const name = process.env.REPLICA_NAME ?? 'replica';
if (!effectsFile) throw new Error('EFFECTS_FILE is not set');
assertContinuationConfigured();

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    void handle(req.url ?? '', JSON.parse(body || '{}') as { state?: string; args?: unknown }).then(
      ([status, payload]) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      },
      (error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(error) }));
      },
    );
  });
});

async function handle(path: string, request: { state?: string; args?: unknown }): Promise<[number, unknown]> {
  const ctx = { mcpReq: { method: 'tools/call', requestState: () => request.state } };
  const bind = bindRequest(ctx, 'refund', request.args);
  if (path === '/ask') return [200, { state: await continuation.seal(ctx, { step: 'confirm', bind }) }];
  const opened = await continuation.openState(ctx, bind);
  if (opened === undefined) return [400, { outcome: 'invalid state' }];
  try {
    if (!(await claimOnce(opened, { store: claimStore }))) return [409, { outcome: 'already completed' }];
  } catch {
    return [503, { outcome: 'refused' }];
  }
  appendFileSync(effectsFile!, `${name} refund ${JSON.stringify(request.args)}\n`); // the side effect
  return [200, { outcome: 'done' }];
}

// Longer than the test's pauses, so a kept-alive connection is never closed under a request in flight.
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address !== null ? address.port : 0 })}\n`);
});
