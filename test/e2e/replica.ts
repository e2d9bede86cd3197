/**
 * One replica process of a ported server set, run as `node replica.js` (compiled by test/global-setup.ts).
 *
 * Loads each module named in `E2E_MODULES` (JSON `[{ mount, file }]`), serves it in the 2026 era behind
 * `createMcpHandler` at `http://127.0.0.1:<port>/<mount>`, and records side effects to `E2E_EFFECTS_FILE`
 * tagged with `E2E_REPLICA`. Prints `LISTENING <port>` on stdout once ready. Nothing here holds state
 * between requests: `createMcpHandler` builds a fresh server per request, so only `requestState` can
 * carry a multi-round call from one replica to the other.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { createMcpHandler, type AuthInfo, type McpHttpHandler, type McpServer, type Server } from '@modelcontextprotocol/server';
import { FileEffectLog, type FixtureModule } from './contract.js';

interface Mount {
  mount: string;
  file: string;
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`replica: ${name} is not set`);
  return value;
}

const replica = requiredEnv('E2E_REPLICA');
const effects = new FileEffectLog(requiredEnv('E2E_EFFECTS_FILE'), replica);
const mounts = JSON.parse(requiredEnv('E2E_MODULES')) as Mount[];

const handlers = new Map<string, McpHttpHandler>();
for (const { mount, file } of mounts) {
  const fixture = (await import(pathToFileURL(file).href)) as FixtureModule<McpServer | Server>;
  handlers.set(`/${mount}`, createMcpHandler(() => fixture.buildServer(effects)));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * Test-only identity: `Authorization: Bearer <name>` makes `<name>` the caller's client id. No token is
 * verified; it only lets the attacks replay one principal's state as another.
 */
function principalOf(req: IncomingMessage): AuthInfo | undefined {
  const name = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  return name === undefined ? undefined : { token: name, clientId: name, scopes: [] };
}

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  const handler = handlers.get(url.pathname);
  if (handler === undefined) {
    res.writeHead(404).end(`no server mounted at ${url.pathname}`);
    return;
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(url, {
    method: req.method,
    headers: toHeaders(req),
    body: hasBody ? new Uint8Array(await readBody(req)) : undefined,
  });
  const response = await handler.fetch(request, { authInfo: principalOf(req) });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  // stream, chunk by chunk: an SSE response must reach the client as it is written
  const reader = response.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) res.write(next.value);
  res.end();
}

// The parent holds our stdin open; when it goes away (even killed), stdin ends and so do we.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

const server = createServer((req, res) => {
  serve(req, res).catch((error: unknown) => {
    process.stderr.write(`replica ${replica}: ${String(error)}\n`);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
// Node closes an idle kept-alive connection after 5 s; on a loaded machine the client's event loop can lag
// past that and send its next request on a socket the server has just closed (ECONNRESET, seen in
// probe/e2e-ported). The client closes its idle sockets first when the server keeps them this long.
server.keepAliveTimeout = 120_000;
server.headersTimeout = 125_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('replica: no TCP address');
  process.stdout.write(`LISTENING ${address.port}\n`);
});
