// Bench corpora, generated from what is on disk (no network): a copy of real package sources from
// node_modules, and a synthetic MCP repo whose every file holds handlers with legacy calls.
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const DECLARATION = /\.d\.(ts|mts|cts)$/;
const SKIP_DIRS = new Set(['.git', 'node_modules', 'dist-types', 'coverage', '__generated__']);

/** Every source file under `root` (no declaration files), sorted; `maxBytes` drops bundles. */
export function listSourceFiles(root, { maxBytes = Infinity, skipNestedNodeModules = true } = {}) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (skipNestedNodeModules && SKIP_DIRS.has(entry.name)) continue;
        walk(abs);
      } else if (entry.isFile() && SOURCE.test(entry.name) && !DECLARATION.test(entry.name)) {
        if (statSync(abs).size <= maxBytes) out.push(abs);
      }
    }
  };
  walk(root);
  return out.sort();
}

/**
 * Copies the sources of the named packages (paths under `nodeModules`) into `dest`, keeping their
 * layout so relative imports still resolve. Returns the copied files.
 */
export function copyRealCorpus(nodeModules, packages, dest, { maxBytes = 400_000 } = {}) {
  rmSync(dest, { recursive: true, force: true });
  const files = [];
  for (const pkg of packages) {
    const from = join(nodeModules, pkg);
    for (const file of listSourceFiles(from, { maxBytes })) {
      const to = join(dest, pkg, relative(from, file));
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(file, to);
      files.push(to);
    }
  }
  return files.sort();
}

/** Empties `dest`; `write(rel, text)` then creates a file there and records it in `files`. */
function freshTree(dest) {
  rmSync(dest, { recursive: true, force: true });
  const files = [];
  const write = (rel, text) => {
    const abs = join(dest, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    files.push(abs);
  };
  return { files, write };
}

/**
 * A synthetic MCP server repo of `count` files: tool modules (each with an auto ask, a helper call
 * into a shared helper module, a loop ask and a low-level handler) plus plain utility modules.
 */
export function generateMcpCorpus(dest, count) {
  const { files, write } = freshTree(dest);
  const helpers = Math.max(1, Math.floor(count / 20));
  for (let h = 0; h < helpers; h++) write(`src/helpers/confirm-${h}.ts`, helperModule(h));
  for (let i = 0; files.length < count; i++) write(`src/tools/tool-${i}.ts`, toolModule(i, i % helpers));
  return files.sort();
}

function helperModule(h) {
  return `import type { ServerContext } from '@modelcontextprotocol/server';

const schema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };

/** Asks the user to confirm an operation (${h}). */
export async function confirm${h}(ctx: ServerContext, what: string): Promise<boolean> {
  const answer = await ctx.mcpReq.elicitInput({ message: \`Confirm \${what}?\`, requestedSchema: schema });
  return answer.action === 'accept' && answer.content?.ok === true;
}

export function describe${h}(value: number): string {
  return value > 10 ? 'large' : value > 5 ? 'medium' : 'small';
}
`;
}

function toolModule(i, h) {
  return `import { McpServer, Server } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { confirm${h}, describe${h} } from '../helpers/confirm-${h}.js';

const schema = { type: 'object' as const, properties: { name: { type: 'string' as const } } };

export function register${i}(server: McpServer, low: Server): void {
  server.registerTool('delete_${i}', { inputSchema: z.object({ path: z.string() }) }, async ({ path }, ctx) => {
    const answer = await ctx.mcpReq.elicitInput({ message: \`Delete \${path}?\`, requestedSchema: schema });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'kept' }] };
    return { content: [{ type: 'text', text: \`deleted \${path}\` }] };
  });

  server.registerTool('refund_${i}', { inputSchema: z.object({ amount: z.number() }) }, async ({ amount }, ctx) => {
    const ok = await confirm${h}(ctx, \`refund of \${amount}\`);
    return { content: [{ type: 'text', text: ok ? describe${h}(amount) : 'declined' }] };
  });

  server.registerTool('batch_${i}', { inputSchema: z.object({ items: z.array(z.string()) }) }, async ({ items }, ctx) => {
    const kept: string[] = [];
    for (const item of items) {
      const reply = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: item } }], maxTokens: 10 });
      if (reply.model) kept.push(item);
    }
    return { content: [{ type: 'text', text: kept.join(',') }] };
  });

  low.setRequestHandler('prompts/get', async (request) => {
    const roots = await low.listRoots();
    return { messages: [{ role: 'user', content: { type: 'text', text: \`\${request.params.name}: \${roots.roots.length}\` } }] };
  });
}

export const helperTable${i} = {
  size: (n: number) => n * ${i + 1},
  label: (s: string) => s.toUpperCase(),
};
`;
}

/**
 * A synthetic SDK v1 server of `count` source files (tool modules and their entry (`@modelcontextprotocol/sdk` imports, `server.tool`
 * registrations, asks through `server.server`), with its package.json, for the port-vs-official-codemod bench when no real v1
 * tree is on this machine.
 */
export function generateV1McpCorpus(dest, count) {
  const { files, write } = freshTree(dest);
  write('package.json', JSON.stringify({ name: 'v1-bench-server', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '1.32.2', zod: '3.25.0' } }, null, 2) + '\n');
  // `count` source files: count - 1 tool modules and the entry that registers them
  for (let i = 0; i < count - 1; i++) write(`src/tools/tool-${i}.ts`, v1ToolModule(i));
  write('src/index.ts', v1Entry(count - 1));
  return files.filter((f) => f.endsWith('.ts')).sort();
}

function v1ToolModule(i) {
  return `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export function register${i}(server: McpServer): void {
  server.tool('confirm_${i}', { path: z.string() }, async ({ path }): Promise<CallToolResult> => {
    const answer = await server.server.elicitInput({
      message: \`Delete \${path}?\`,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'kept' }] };
    return { content: [{ type: 'text', text: \`deleted \${path}\` }] };
  });

  server.tool('summarize_${i}', { text: z.string() }, async ({ text }) => {
    const reply = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 100 });
    return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
  });
}
`;
}

function v1Entry(tools) {
  const ids = Array.from({ length: tools }, (_, i) => i);
  return `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
${ids.map((i) => `import { register${i} } from './tools/tool-${i}.js';`).join('\n')}

const server = new McpServer({ name: 'v1-bench', version: '1.0.0' });
${ids.map((i) => `register${i}(server);`).join('\n')}
await server.connect(new StdioServerTransport());
`;
}
