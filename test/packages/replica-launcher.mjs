// One replica of a ported package, run with plain `node` (no tsx: a JavaScript package must run as it
// is written). The package has no HTTP entry of its own (it serves stdio), so this test-side launcher
// mounts the package's server factory behind createMcpHandler, 2026 era, on a free loopback port, and
// prints `LISTENING <port>` once ready.
//   PACKAGE_SERVER   absolute path of the package module that exports the factory
//   PACKAGE_FACTORY  the factory's export name (a function returning an McpServer)
//   PACKAGE_MODULES  `esm` or `cjs`: the SDK build the package itself loads. createMcpHandler must come
//                    from that same build, or the package's McpServer is not an instance of its class.
// Optional `Authorization: Bearer <name>` makes <name> the caller's client id (as test/e2e/replica.ts).
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

function requiredEnv(name) {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`replica-launcher: ${name} is not set`);
  return value;
}

const serverFile = requiredEnv('PACKAGE_SERVER');
const factoryName = requiredEnv('PACKAGE_FACTORY');
const modules = requiredEnv('PACKAGE_MODULES');
if (modules !== 'esm' && modules !== 'cjs') throw new Error(`replica-launcher: PACKAGE_MODULES must be esm or cjs (got ${modules})`);

const requireFromPackage = createRequire(serverFile);
const pkg = modules === 'cjs' ? requireFromPackage(serverFile) : await import(pathToFileURL(serverFile).href);
const { createMcpHandler } = modules === 'cjs' ? requireFromPackage('@modelcontextprotocol/server') : await import('@modelcontextprotocol/server');
const factory = pkg[factoryName];
if (typeof factory !== 'function') throw new Error(`replica-launcher: ${serverFile} does not export a function ${factoryName}`);
const handler = createMcpHandler(() => factory(), { onerror: (error) => process.stderr.write(`server error: ${error?.stack ?? error}\n`) });

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function toHeaders(req) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

function principalOf(req) {
  const name = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  return name === undefined ? undefined : { token: name, clientId: name, scopes: [] };
}

async function serve(req, res) {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(url, { method: req.method, headers: toHeaders(req), body: hasBody ? new Uint8Array(await readBody(req)) : undefined });
  const response = await handler.fetch(request, { authInfo: principalOf(req) });
  const headers = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (response.body === null) return void res.end();
  // stream chunk by chunk: an SSE response must reach the client as it is written
  const reader = response.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) res.write(next.value);
  res.end();
}

// The parent holds our stdin open; when it goes away (even killed), stdin ends and so do we.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

const server = createServer((req, res) => {
  serve(req, res).catch((error) => {
    process.stderr.write(`replica: ${String(error)}\n`);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`LISTENING ${server.address().port}\n`));
