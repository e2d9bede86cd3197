// Each helper flavor `port` writes (TypeScript, ES module, CommonJS; both codecs) is generated from the one
// tested source, and the JavaScript ones load and work in a real Node process.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from '../../src/typescript.cjs';
import { afterEach, describe, expect, it } from 'vitest';
import { continuationTemplate, renderHelper, TS_FLAVOR, type ContinuationCodec, type HelperFlavor } from '../../src/runtime/template.js';

const NODE_MODULES = new URL('../../node_modules', import.meta.url).pathname;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A scratch package of the given type whose node_modules is this repository's. */
function scratchPackage(type: 'module' | 'commonjs'): string {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-helper-'));
  dirs.push(dir);
  symlinkSync(NODE_MODULES, join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch', type }));
  return dir;
}

/** Seals a state and opens it: for the same request, for other arguments, and tampered. */
const ROUND_TRIP = `
  const c = m.createContinuation({ keys: ['k'.repeat(40)] });
  const ctx = { mcpReq: { method: 'tools/call' } };
  const bind = m.bindRequest(ctx, 'refund', { orderId: 'A1' });
  const state = await c.seal(ctx, { step: 'confirm', bind, carried: { n: 1 } });
  const at = (s) => ({ mcpReq: { method: 'tools/call', requestState: () => s } });
  const opened = await c.open(at(state), bind);
  const foreign = await c.open(at(state), m.bindRequest(ctx, 'refund', { orderId: 'B2' }));
  const tampered = await c.open(at(state.slice(0, -2) + (state.endsWith('AA') ? 'BB' : 'AA')), bind);
  console.log(JSON.stringify({ opened, foreign: foreign === undefined, tampered: tampered === undefined }));
`;

function runNode(dir: string, entry: string, body: string): unknown {
  writeFileSync(join(dir, entry), body);
  const out = execFileSync(process.execPath, [join(dir, entry)], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, NODE_ENV: 'test', MRTR_STATE_KEYS: 'helper-variants-test-secret-0123456789abcdef' } });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

const JS_FLAVORS: [HelperFlavor, 'module' | 'commonjs'][] = [
  [{ language: 'esm', extension: '.js' }, 'module'],
  [{ language: 'esm', extension: '.mjs' }, 'commonjs'],
  [{ language: 'cjs', extension: '.js' }, 'commonjs'],
  [{ language: 'cjs', extension: '.cjs' }, 'module'],
];
const CODECS: ContinuationCodec[] = ['aead', 'sdk'];

describe('continuation helper flavors', () => {
  it('TypeScript gets the tested source byte for byte', () => {
    for (const codec of CODECS) {
      const helper = renderHelper('continuation', codec, TS_FLAVOR);
      expect(helper.text).toBe(continuationTemplate(codec));
      expect(helper.fileName).toBe(codec === 'sdk' ? 'mrtr-continuation-sdk.ts' : 'mrtr-continuation.ts');
    }
  });

  it.each(CODECS.flatMap((codec) => JS_FLAVORS.map(([flavor, type]) => [codec, flavor, type] as const)))(
    '%s as %o in a "%s" package loads in Node and seals/opens a state',
    (codec, flavor, type) => {
      const dir = scratchPackage(type);
      const helper = renderHelper('continuation', codec, flavor);
      writeFileSync(join(dir, helper.fileName), helper.text);
      const entry = flavor.language === 'esm'
        ? { name: 'main.mjs', body: `import * as m from './${helper.fileName}';\n${ROUND_TRIP}` }
        : { name: 'main.cjs', body: `const m = require('./${helper.fileName}');\n(async () => {${ROUND_TRIP}})();` };
      expect(runNode(dir, entry.name, entry.body)).toEqual({ opened: { step: 'confirm', carried: { n: 1 } }, foreign: true, tampered: true });
    },
  );

  it('JavaScript flavors have no types left and keep the comments', () => {
    for (const [flavor] of JS_FLAVORS) {
      const text = renderHelper('continuation', 'aead', flavor).text;
      expect(text).not.toMatch(/^\s*(export\s+)?(interface|type)\s+\w+/m);
      expect(text).toContain('AES-256-GCM');
      // the doc comment of an exported function comes through as written
      const source = continuationTemplate('aead');
      const at = source.indexOf('export function bindRequest');
      const doc = source.slice(source.lastIndexOf('/**', at), source.indexOf('*/', source.lastIndexOf('/**', at)) + 2);
      expect(doc.length).toBeGreaterThan(10);
      expect(text).toContain(doc);
      // plain JavaScript: it parses as JS with no diagnostics
      const sf = ts.createSourceFile('h.js', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
      expect((sf as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics).toEqual([]);
    }
  });

  it('CommonJS flavors use require/exports and never an import statement; ES flavors never require', () => {
    const cjs = renderHelper('continuation', 'sdk', { language: 'cjs', extension: '.cjs' }).text;
    expect(cjs).toMatch(/require\("@modelcontextprotocol\/server"\)/);
    expect(cjs).toMatch(/^exports\.bindRequest = bindRequest;$/m);
    expect(cjs).not.toMatch(/^\s*(import|export)\s/m);
    const esm = renderHelper('continuation', 'sdk', { language: 'esm', extension: '.mjs' }).text;
    expect(esm).toMatch(/^import \{ createRequestStateCodec \} from '@modelcontextprotocol\/server';$/m);
    expect(esm).not.toMatch(/\brequire\(/);
  });

  it('is deterministic (a second port finds the helper identical)', () => {
    for (const [flavor] of JS_FLAVORS) {
      expect(renderHelper('continuation', 'aead', flavor).text).toBe(renderHelper('continuation', 'aead', flavor).text);
    }
  });

  it('refuses a flavor that cannot be, and an unknown codec or role', () => {
    expect(() => renderHelper('continuation', 'aead', { language: 'cjs', extension: '.mjs' })).toThrow(/no ".mjs" helper for "cjs"/);
    expect(() => renderHelper('continuation', 'aead', { language: 'ts', extension: '.js' })).toThrow(/no ".js" helper for "ts"/);
    expect(() => renderHelper('continuation', 'hmac' as never, TS_FLAVOR)).toThrow(/unknown codec "hmac"/);
    expect(() => renderHelper('store' as never, 'aead', TS_FLAVOR)).toThrow(/unknown helper "store"/);
    expect(() => renderHelper('claims', { codec: 'aead', claims: 'etcd' as never }, TS_FLAVOR)).toThrow(/unknown claim store "etcd"/);
  });

  it('the tested sources are what src/runtime holds', () => {
    expect(continuationTemplate('aead')).toBe(readFileSync(new URL('../../src/runtime/mrtr-continuation.ts', import.meta.url), 'utf8'));
  });
});

describe('a mixed package (ES modules and CommonJS) shares one CommonJS helper', () => {
  it('an ES module imports the .cjs helper by name', () => {
    const dir = scratchPackage('module');
    const helper = renderHelper('continuation', 'aead', { language: 'cjs', extension: '.cjs' });
    writeFileSync(join(dir, helper.fileName), helper.text);
    const body = `import { createContinuation, bindRequest } from './${helper.fileName}';\nconst m = { createContinuation, bindRequest };\n${ROUND_TRIP}`;
    expect(runNode(dir, 'main.js', body)).toEqual({ opened: { step: 'confirm', carried: { n: 1 } }, foreign: true, tampered: true });
  });
});

/** A shop server written against the generated flow helper, in the flavor's module system. */
function shopServer(flavor: HelperFlavor, flowFile: string): string {
  const body = `
const effects = [];
const confirmSchema = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };
function build() {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  server.registerTool('refund', { inputSchema: z.object({ orderId: z.string() }) }, resumable('refund', async ({ orderId }, ctx) => {
    const order = await once(() => { effects.push('lookup ' + orderId); return { id: orderId, total: 5 }; });
    const ref = await once(() => 'ref-' + Math.random().toString(36).slice(2, 10));
    const answer = await elicit({ message: 'Refund ' + order.total + ' (' + ref + ')?', requestedSchema: confirmSchema });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: answer.action }] };
    effects.push('refund ' + ref);
    return { content: [{ type: 'text', text: 'refunded ' + ref }] };
  }));
  return server;
}
`;
  return flavor.language === 'esm'
    ? `import { McpServer } from '@modelcontextprotocol/server';\nimport * as z from 'zod';\nimport { elicit, once, resumable } from './${flowFile}';\n${body}export { build, effects };\n`
    : `const { McpServer } = require('@modelcontextprotocol/server');\nconst z = require('zod');\nconst { elicit, once, resumable } = require('./${flowFile}');\n${body}module.exports = { build, effects };\n`;
}

/**
 * Two createMcpHandler replicas, round-robin, and a real 2026-07-28 client that accepts. Written in the
 * server's own module system: a CommonJS server is hosted by the SDK's CommonJS build (an ES module host
 * would load the other build, whose classes the CommonJS McpServer is not an instance of).
 */
function driver(language: 'esm' | 'cjs', serverFile: string): { name: string; body: string } {
  const main = `
const onerror = (error) => console.error('server error:', error.stack);
const replicas = [createMcpHandler(() => build(), { onerror }), createMcpHandler(() => build(), { onerror })];
let next = 0;
const rounds = [];
const fetchRoundRobin = (url, init) => {
  if (typeof init?.body === 'string') rounds.push(JSON.parse(init.body).method);
  return replicas[next++ % 2].fetch(new Request(url, init));
};
const asked = [];
const client = new Client({ name: 'probe', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } });
client.setRequestHandler('elicitation/create', async (request) => {
  asked.push(request.params.message);
  return { action: 'accept', content: { confirm: true } };
});
await client.connect(new StreamableHTTPClientTransport(new URL('http://replicas.test/mcp'), { fetch: fetchRoundRobin }));
const result = await client.callTool({ name: 'refund', arguments: { orderId: 'A1' } });
const era = client.getProtocolEra();
await client.close();
await Promise.all(replicas.map((r) => r.close()));
console.log(JSON.stringify({ era, text: result.content[0].text, asked, effects, toolCalls: rounds.filter((m) => m === 'tools/call').length }));
`;
  return language === 'esm'
    ? {
        name: 'driver.mjs',
        body: `import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';\nimport { createMcpHandler } from '@modelcontextprotocol/server';\nimport { build, effects } from './${serverFile}';\n${main}`,
      }
    : {
        name: 'driver.cjs',
        body: `const { Client, StreamableHTTPClientTransport } = require('@modelcontextprotocol/client');\nconst { createMcpHandler } = require('@modelcontextprotocol/server');\nconst { build, effects } = require('./${serverFile}');\n(async () => {${main}})();\n`,
      };
}

describe('flow helper flavors', () => {
  it.each([
    ...JS_FLAVORS.map(([flavor, type]) => ['aead', flavor, type] as const),
    ['sdk', { language: 'esm', extension: '.js' }, 'module'] as const,
    ['sdk', { language: 'cjs', extension: '.cjs' }, 'module'] as const,
  ])('%s as %o in a "%s" package: a handler runs to input_required and back on two replicas', (codec, flavor, type) => {
    const dir = scratchPackage(type);
    const flow = renderHelper('flow', codec, flavor);
    expect(flow.imports).toEqual(['continuation', 'claims']);
    const continuationHelper = renderHelper('continuation', codec, flavor);
    const claims = renderHelper('claims', codec, flavor);
    expect(claims.imports).toEqual(['continuation']);
    // the flow and the claim store import the codec's continuation file, by its real name
    expect(flow.text).toContain(`./${continuationHelper.fileName}`);
    expect(claims.text).toContain(`./${continuationHelper.fileName}`);
    expect(flow.text).toContain(`./mrtr-claims${flavor.extension}`);
    for (const helper of [flow, continuationHelper, claims]) writeFileSync(join(dir, helper.fileName), helper.text);
    const serverFile = `shop${flavor.extension}`;
    writeFileSync(join(dir, serverFile), shopServer(flavor, flow.fileName));
    const host = driver(flavor.language === 'esm' ? 'esm' : 'cjs', serverFile);
    const out = runNode(dir, host.name, host.body) as { era: string; text: string; asked: string[]; effects: string[]; toolCalls: number };
    const ref = /\((ref-\w+)\)/.exec(out.asked[0] ?? '')?.[1];
    expect(ref).toBeDefined();
    expect(out).toEqual({ era: 'modern', text: `refunded ${ref}`, asked: [`Refund 5 (${ref})?`], effects: ['lookup A1', `refund ${ref}`], toolCalls: 2 });
  });

  it('an ES module server ported next to CommonJS files runs on the shared .cjs helpers', () => {
    const dir = scratchPackage('module');
    const cjs: HelperFlavor = { language: 'cjs', extension: '.cjs' };
    for (const role of ['flow', 'continuation', 'claims'] as const) {
      const helper = renderHelper(role, 'aead', cjs);
      writeFileSync(join(dir, helper.fileName), helper.text);
    }
    writeFileSync(join(dir, 'shop.js'), shopServer({ language: 'esm', extension: '.js' }, 'mrtr-flow.cjs'));
    const host = driver('esm', 'shop.js');
    const out = runNode(dir, host.name, host.body) as { text: string; effects: string[] };
    expect(out.text).toMatch(/^refunded ref-\w+$/);
    expect(out.effects).toHaveLength(2);
  });

  it('TypeScript keeps the source, and points the flow at the -sdk continuation or at the package suffix', () => {
    const tested = readFileSync(new URL('../../src/runtime/mrtr-flow.ts', import.meta.url), 'utf8');
    expect(renderHelper('flow', 'aead', TS_FLAVOR).text).toBe(tested);
    expect(renderHelper('flow', 'sdk', TS_FLAVOR).text).toBe(tested.replace("from './mrtr-continuation.js'", "from './mrtr-continuation-sdk.js'"));
    expect(renderHelper('flow', 'aead', { ...TS_FLAVOR, importSuffix: '' }).text).toBe(
      tested.replace("from './mrtr-continuation.js'", "from './mrtr-continuation'").replace("from './mrtr-claims.js'", "from './mrtr-claims'"),
    );
  });

  it('--claims redis: the flow imports the Redis claim store, which imports the codec\'s continuation', () => {
    const tested = readFileSync(new URL('../../src/runtime/mrtr-flow.ts', import.meta.url), 'utf8');
    const redis = { codec: 'sdk', claims: 'redis' } as const;
    expect(renderHelper('flow', redis, TS_FLAVOR).text).toBe(
      tested.replace("from './mrtr-continuation.js'", "from './mrtr-continuation-sdk.js'").replace("from './mrtr-claims.js'", "from './mrtr-claims-redis.js'"),
    );
    const store = renderHelper('claims', redis, { language: 'cjs', extension: '.cjs' });
    expect(store.fileName).toBe('mrtr-claims-redis.cjs');
    expect(store.text).toMatch(/require\("redis"\)/);
    expect(store.text).toContain('require("./mrtr-continuation-sdk.cjs")');
    expect(renderHelper('claims', 'aead', TS_FLAVOR).text).toBe(readFileSync(new URL('../../src/runtime/mrtr-claims.ts', import.meta.url), 'utf8'));
  });
});
