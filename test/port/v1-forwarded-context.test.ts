/**
 * SDK v1 handlers that hand `extra` to a helper: the official codemod writes `@mcp-codemod-error The
 * context object is forwarded to helper(…)` above the call. When the helper's only use of `extra` was the
 * ask, the port rewrites it and the comment has nothing left to annotate (src/port/v1-forwarded-context.ts):
 * it goes, and `check` passes on the complete port. Every other helper keeps it.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/index.js';
import { runPort, type PortResult } from '../../src/port/index.js';
import { settleForwardedContextComments } from '../../src/port/v1-forwarded-context.js';
import { removeDir } from './helpers.js';

const V1_HEAD = [
  `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';`,
  `import { ElicitResultSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';`,
  `import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';`,
  `import { z } from 'zod';`,
];
const EXTRA = 'RequestHandlerExtra<ServerRequest, ServerNotification>';
const ASK = (what: string) =>
  `extra.sendRequest({ method: 'elicitation/create', params: { message: \`${what}?\`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } }, ElicitResultSchema)`;

/** Helpers whose only use of `extra` is the ask: one in the handler's file, one imported, one a class method. */
const COMPLETE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'complete', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.32.2', zod: '^3.25.0' } }),
  'src/asks.ts': [
    `// an imported helper that takes the context first`,
    `import { ElicitResultSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';`,
    `import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';`,
    `export async function askArchive(extra: ${EXTRA}, id: string): Promise<boolean> {`,
    `  const answer = await ${ASK('Archive ${id}')};`,
    `  return answer.action === 'accept';`,
    `}`,
    ``,
  ].join('\n'),
  'src/server.ts': [
    ...V1_HEAD,
    `import { askArchive } from './asks.js';`,
    ``,
    `async function confirm(what: string, extra: ${EXTRA}): Promise<boolean> {`,
    `  const answer = await ${ASK('Delete ${what}')};`,
    `  return answer.action === 'accept';`,
    `}`,
    ``,
    `class Desk {`,
    `  async approve(extra: ${EXTRA}): Promise<boolean> {`,
    `    const answer = await ${ASK('Approve')};`,
    `    return answer.action === 'accept';`,
    `  }`,
    `  register(server: McpServer): void {`,
    `    server.tool('approve', { n: z.number() }, async ({ n }, extra) => ({ content: [{ type: 'text', text: (await this.approve(extra)) ? \`approved \${n}\` : 'no' }] }));`,
    `  }`,
    `}`,
    ``,
    `export function createServer(): McpServer {`,
    `  const server = new McpServer({ name: 'complete', version: '1.0.0' });`,
    `  server.tool('del', { what: z.string() }, async ({ what }, extra) => {`,
    `    if (!(await confirm(what, extra))) return { content: [{ type: 'text', text: 'kept' }] };`,
    `    return { content: [{ type: 'text', text: 'deleted' }] };`,
    `  });`,
    `  server.tool('archive', { id: z.string() }, async ({ id }, extra) => {`,
    `    const yes = await askArchive(extra, id);`,
    `    return { content: [{ type: 'text', text: yes ? 'archived' : 'kept' }] };`,
    `  });`,
    `  // the context destructured, in the signature and in the body: the asks were its only use`,
    `  server.tool('pick', { id: z.string() }, async ({ id }, { sendRequest }) => {`,
    `    const answer = await ${ASK('Pick ${id}').replace('extra.sendRequest', 'sendRequest')};`,
    `    return { content: [{ type: 'text', text: answer.action }] };`,
    `  });`,
    `  server.tool('drop', { id: z.string() }, async ({ id }, extra) => {`,
    `    const { sendRequest } = extra;`,
    `    const answer = await ${ASK('Drop ${id}').replace('extra.sendRequest', 'sendRequest')};`,
    `    return { content: [{ type: 'text', text: answer.action }] };`,
    `  });`,
    `  new Desk().register(server);`,
    `  return server;`,
    `}`,
    ``,
  ].join('\n'),
};

/** Helpers that still read the context after the port, or were never the port's to change. */
const LEFT: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'left', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.32.2', zod: '^3.25.0' } }),
  'src/server.ts': [
    ...V1_HEAD,
    ``,
    `// asks, and also reads the abort signal: extra.signal is ctx.mcpReq.signal in v2, a human's edit`,
    `async function confirmUnlessAborted(what: string, extra: ${EXTRA}): Promise<boolean> {`,
    `  if (extra.signal.aborted) return false;`,
    `  const answer = await ${ASK('Purge ${what}')};`,
    `  return answer.action === 'accept';`,
    `}`,
    ``,
    `// no ask at all: the port does not touch it`,
    `function sessionOf(extra: ${EXTRA}): string {`,
    `  return extra.sessionId ?? 'none';`,
    `}`,
    ``,
    `export function createServer(): McpServer {`,
    `  const server = new McpServer({ name: 'left', version: '1.0.0' });`,
    `  server.tool('purge', { what: z.string() }, async ({ what }, extra) => {`,
    `    const yes = await confirmUnlessAborted(what, extra);`,
    `    return { content: [{ type: 'text', text: yes ? 'purged' : 'kept' }] };`,
    `  });`,
    `  server.tool('whoami', { verbose: z.boolean() }, async ({ verbose }, extra) => ({ content: [{ type: 'text', text: verbose ? sessionOf(extra) : 'hi' }] }));`,
    `  // destructured with a name the port leaves (signal is ctx.mcpReq.signal in v2): in the signature and in the body`,
    `  server.tool('pick', { id: z.string() }, async ({ id }, { sendRequest, signal }) => {`,
    `    const answer = await ${ASK('Pick ${id}').replace('extra.sendRequest', 'sendRequest')};`,
    `    return { content: [{ type: 'text', text: signal.aborted ? 'aborted' : answer.action }] };`,
    `  });`,
    `  server.tool('drop', { id: z.string() }, async ({ id }, extra) => {`,
    `    const { sendRequest, signal } = extra;`,
    `    const answer = await ${ASK('Drop ${id}').replace('extra.sendRequest', 'sendRequest')};`,
    `    return { content: [{ type: 'text', text: signal.aborted ? 'aborted' : answer.action }] };`,
    `  });`,
    `  return server;`,
    `}`,
    ``,
  ].join('\n'),
};

function writeProject(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-port-forwarded-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const codemodComments = (text: string) => text.split('\n').filter((l) => l.includes('/* @mcp-codemod-error'));

let complete: { dir: string; result: PortResult };
let left: { dir: string; result: PortResult };

beforeAll(async () => {
  const dirs = [writeProject(COMPLETE), writeProject(LEFT)];
  const [a, b] = await Promise.all(dirs.map((dir) => runPort({ cwd: dir, paths: ['.'] })));
  complete = { dir: dirs[0], result: a };
  left = { dir: dirs[1], result: b };
}, 60_000);

afterAll(() => {
  for (const p of [complete, left]) if (p) removeDir(p.dir);
});

describe('@mcp-codemod-error "context forwarded to a helper" after the port', () => {
  it('goes when the port rewrote the helper’s only use of the context (same file, imported, this.method): check passes', async () => {
    const server = readFileSync(join(complete.dir, 'src/server.ts'), 'utf8');
    expect(server).toContain('inputRequest(');
    expect(codemodComments(server)).toEqual([]);
    expect(complete.result.summary.codemodMarkers).toBe(0);
    expect(complete.result.nextSteps.map((s) => s.id)).not.toContain('codemod-markers');
    const checked = await runCheck({ cwd: complete.dir });
    expect(checked.output).toContain('check passed');
    expect(checked.exitCode).toBe(0);
  });

  it('stays above a helper that still reads the context, and above one the port did not change', () => {
    const server = readFileSync(join(left.dir, 'src/server.ts'), 'utf8');
    const comments = codemodComments(server);
    expect(comments).toHaveLength(4);
    expect(comments[0]).toContain('forwarded to confirmUnlessAborted(…)');
    expect(comments[1]).toContain('forwarded to sessionOf(…)');
    expect(left.result.summary.codemodMarkers).toBe(4);
  });

  it('"Destructuring of context parameter" goes when the port dropped every name it quotes, and stays while one is left', () => {
    const complete_ = readFileSync(join(complete.dir, 'src/server.ts'), 'utf8');
    expect(complete_).not.toContain('sendRequest');
    expect(codemodComments(complete_)).toEqual([]);
    const comments = codemodComments(readFileSync(join(left.dir, 'src/server.ts'), 'utf8'));
    expect(comments[2]).toContain('Destructuring of context parameter in signature: "{ sendRequest, signal }"');
    expect(comments[3]).toContain('Destructuring of context parameter detected: "const { sendRequest, signal } = ctx"');
  });
});

describe('settleForwardedContextComments on texts', () => {
  const signature = (pattern: string) => [
    `/* @mcp-codemod-error Destructuring of context parameter in signature: "{ sendRequest }". Properties have been reorganized in v2 (e.g., signal is now ctx.mcpReq.signal). Manual refactoring required. */`,
    `server.registerTool('t', {}, async (${pattern}) => ({ content: [] }));`,
  ].join('\n');
  const body = (declaration: string) => [
    `server.registerTool('t', {}, async (_args, ctx) => {`,
    `  /* @mcp-codemod-error Destructuring of context parameter detected: "const { sendRequest } = ctx". Properties have been reorganized in v2 (e.g., signal is now ctx.mcpReq.signal). Manual refactoring required. */`,
    `  ${declaration}`,
    `  return { content: [] };`,
    `});`,
  ].join('\n');
  const settle = (after: string) => settleForwardedContextComments(new Map([['/p/s.ts', { before: after, after }]])).get('/p/s.ts');

  it('drops a destructuring comment once no name it quotes is destructured there, and keeps it while one is', () => {
    expect(settle(signature('{ id }'))).toBe(signature('{ id }').split('\n')[1]);
    expect(settle(signature('{ id }, { sendRequest }'))).toBeUndefined();
    expect(settle(signature('{ id }, { sendRequest: send }'))).toBeUndefined();
    expect(settle(body('const answer = await inputRequest(q);'))).toBe(body('const answer = await inputRequest(q);').split('\n').filter((_, i) => i !== 1).join('\n'));
    expect(settle(body('const { sendRequest } = ctx;'))).toBeUndefined();
  });

  const before = [
    `async function a(extra: X) { return extra.sendRequest(q); }`,
    `async function b(extra: X) { return extra.sendRequest(q); }`,
    `h(async (args, ctx) => {`,
    `  /* @mcp-codemod-error The context object is forwarded to a(…) — shape. | The context object is forwarded to b(…) — shape. */`,
    `  return (await a(ctx)) && (await b(ctx));`,
    `});`,
  ].join('\n');

  it('drops the settled part of a merged comment and keeps the rest', () => {
    const after = before.replace('{ return extra.sendRequest(q); }', '{ return inputRequest(q); }');
    const out = settleForwardedContextComments(new Map([['/p/s.ts', { before, after }]]));
    expect(out.get('/p/s.ts')!.split('\n')[3]).toBe('  /* @mcp-codemod-error The context object is forwarded to b(…) — shape. */');
  });

  it('removes the line when every part is settled, and changes nothing when none is', () => {
    const after = before.replaceAll('{ return extra.sendRequest(q); }', '{ return inputRequest(q); }');
    const out = settleForwardedContextComments(new Map([['/p/s.ts', { before, after }]]));
    expect(out.get('/p/s.ts')!.split('\n')).toEqual(after.split('\n').filter((_, i) => i !== 3));
    expect(settleForwardedContextComments(new Map([['/p/s.ts', { before, after: before }]])).size).toBe(0);
  });
});
