import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { getMigration, run } from '@modelcontextprotocol/codemod';
import { afterEach, describe, expect, it } from 'vitest';
import { importsToRequires, requiresToImports } from '../../src/port/cjs-bridge.js';
import { runPort } from '../../src/port/index.js';
import { countCodemodMarkers, inferProjectType, isV1Source, migrateV1Source } from '../../src/port/v1-migration.js';
import { findV1OnlyCalls } from '../../src/port/v1-only-calls.js';
import { foreignReceiverCalls } from '../../src/port/v1-foreign-receivers.js';
import { copyFixture, removeDir, repoRoot } from './helpers.js';

const mini = join(repoRoot, 'fixtures/port/v1-mini/src');
const read = (name: string) => readFileSync(join(mini, name), 'utf8');

describe('isV1Source', () => {
  it('sees v1 imports, requires and dynamic imports, not v2 packages or prose', () => {
    expect(isV1Source(read('server.ts'))).toBe(true);
    expect(isV1Source(`const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");`)).toBe(true);
    expect(isV1Source(`const m = await import('@modelcontextprotocol/sdk/types.js');`)).toBe(true);
    expect(isV1Source(`import { McpServer } from '@modelcontextprotocol/server';`)).toBe(false);
    expect(isV1Source(`// migrated off @modelcontextprotocol/sdk last year`)).toBe(false);
    expect(isV1Source(read('util.ts'))).toBe(false);
  });
});

describe('inferProjectType', () => {
  it('reads v1 client/server subpath imports like the codemod does', () => {
    expect(inferProjectType([read('server.ts')])).toBe('server');
    expect(inferProjectType([`import { Client } from '@modelcontextprotocol/sdk/client/index.js';`])).toBe('client');
    expect(inferProjectType([read('server.ts'), `import '@modelcontextprotocol/sdk/client/index.js';`])).toBe('both');
    expect(inferProjectType([read('util.ts')])).toBe('unknown');
  });
});

describe('migrateV1Source', () => {
  it('rewrites v1 registrations, extra and imports to v2 and keeps the shebang', () => {
    const r = migrateV1Source({ source: read('server.ts'), path: join(mini, 'server.ts'), projectType: 'server' });
    expect(r.changed).toBe(true);
    expect(r.source.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(r.source).toContain(`from "@modelcontextprotocol/server"`);
    expect(r.source).not.toContain('@modelcontextprotocol/sdk');
    expect(r.source).toContain(`server.registerTool('wipe'`);
    expect(r.source).toContain('ctx.mcpReq.send(');
  });

  it('keeps a description written as a concatenation or a const a description, where the codemod alone takes it for the schema (fixtures/port/v1-description-args)', () => {
    const path = join(repoRoot, 'fixtures/port/v1-description-args/tools.ts');
    const r = migrateV1Source({ source: readFileSync(path, 'utf8'), path, projectType: 'server' });
    expect(r.source).toContain("server.registerTool('list_properties', { description: 'List properties. ' +\n      'Default limit 10, max 100.', inputSchema: ListSchema.shape }");
    expect(r.source).toContain("server.registerTool('get_property', { description: GET_DESCRIPTION, inputSchema: z.object({ id: z.string() }) }");
    expect(r.source).toContain("server.registerTool('ping', { description: ('Answers ' + 'pong.') }");
    // the code, below the opening comment that quotes what the codemod alone writes
    expect(r.source.slice(r.source.indexOf('import '))).not.toMatch(/inputSchema: (?:'|GET_DESCRIPTION|\()|annotations:/);
    expect(r.source).not.toContain('__mrtrPortDescription');
  });

  it('writes the codemod marker where extra is forwarded to a helper, once', () => {
    const r = migrateV1Source({ source: read('server.ts'), path: join(mini, 'server.ts'), projectType: 'server' });
    expect(r.codemodMarkers).toBe(1);
    const lines = r.source.split('\n');
    const at = lines.findIndex((l) => l.includes('@mcp-codemod-error'));
    expect(lines[at].trim().startsWith('/* @mcp-codemod-error')).toBe(true);
    expect(lines[at + 1]).toContain('await confirmWith(ctx');
    expect(countCodemodMarkers(r.source)).toBe(1);
    // the diagnostic line points at the marked statement in the returned text
    const forwarded = r.diagnostics.find((d) => d.message.includes('forwarded to confirmWith'));
    expect(lines[forwarded!.line - 1]).toContain('await confirmWith(ctx');
  });

  it('changes nothing in a file without SDK v1 code, and nothing on its own output', () => {
    const util = migrateV1Source({ source: read('util.ts'), path: join(mini, 'util.ts') });
    expect(util.changed).toBe(false);
    expect(util.source).toBe(read('util.ts'));
    const once = migrateV1Source({ source: read('server.ts'), path: join(mini, 'server.ts'), projectType: 'server' });
    const twice = migrateV1Source({ source: once.source, path: join(mini, 'server.ts'), projectType: 'server' });
    expect(twice.source).toBe(once.source);
  });

  it('marks an unknown SDK import path on the first run even when the import merge replaced its node, so a second run changes nothing', () => {
    // the codemod drops that comment when its node is gone (the merged v2 imports replace the block);
    // with nothing left to merge, a second run would then write it
    const source = [
      `/** A doc comment above the imports: the merge rewrites the block with it. */`,
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';`,
      `import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';`,
      `import { z } from 'zod';`,
      `import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';`,
      `const server = new McpServer({ name: 's', version: '1' });`,
      `server.tool('t', { a: z.string() }, async ({ a }) => ({ content: [{ type: 'text', text: String(toJsonSchemaCompat) + a }] }));`,
      `await server.connect(new StdioServerTransport());`,
      ``,
    ].join('\n');
    const path = join(mini, 'compat.ts');
    const once = migrateV1Source({ source, path, projectType: 'server' });
    const lines = once.source.split('\n');
    const at = lines.findIndex((l) => l.startsWith('import') && l.includes('zod-json-schema-compat'));
    expect(lines[at - 1]).toMatch(/@mcp-codemod-error Unknown SDK import path: @modelcontextprotocol\/sdk\/server\/zod-json-schema-compat\.js/);
    expect(migrateV1Source({ source: once.source, path, projectType: 'server' }).source).toBe(once.source);
  });

  it('keeps a byte-order mark', () => {
    const r = migrateV1Source({ source: '\uFEFF' + read('confirm.ts'), path: join(mini, 'confirm.ts'), projectType: 'server' });
    expect(r.source.startsWith('\uFEFFimport')).toBe(true);
    expect(r.source).toContain('extra: ServerContext');
  });

  describe('parity with the official codemod runner', () => {
    let dir: string | undefined;
    afterEach(() => dir && removeDir(dir));

    it('produces, file by file, the text `run()` writes for the same project, but for the indentation it keeps', () => {
      dir = copyFixture('port', 'v1-mini');
      const before = new Map(readdirSync(join(dir, 'src')).map((f) => [f, readFileSync(join(dir!, 'src', f), 'utf8')]));
      const ours = new Map(
        [...before].map(([f, text]) => [f, migrateV1Source({ source: text, path: join(dir!, 'src', f), projectType: inferProjectType(before.values()) }).source]),
      );
      run(getMigration('v1-to-v2')!, { targetDir: dir });
      const lines = (text: string) => text.split('\n').map((l) => l.trimStart());
      for (const [f, text] of ours) expect(lines(text), f).toEqual(lines(readFileSync(join(dir, 'src', f), 'utf8')));
    });

    it('differs from `run()` only on the calls of the repository\'s own objects it keeps, which stay as written (fixtures/port/v1-own-logger)', () => {
      // the intended difference (docs/port.md, "The codemod's receiver-blind renames"): `run()` renames
      // `log.tool(…)` on a server's own logger as if it were McpServer's; the port keeps those calls
      dir = copyFixture('port', 'v1-own-logger');
      const files = readdirSync(join(dir, 'src')).map((f) => join(dir!, 'src', f));
      const before = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
      const keep = foreignReceiverCalls({ cwd: dir, files, texts: before, targets: files });
      const ours = new Map([...before].map(([f, text]) => [f, migrateV1Source({ source: text, path: f, projectType: inferProjectType(before.values()), keep: keep.get(f)?.flatMap((c) => c.names) }).source]));
      run(getMigration('v1-to-v2')!, { targetDir: dir });
      const lines = (text: string) => text.split('\n').map((l) => l.trimStart());
      const differing: string[] = [];
      for (const [f, text] of ours) {
        const mine = lines(text);
        const theirs = lines(readFileSync(f, 'utf8'));
        const input = lines(before.get(f)!);
        expect(mine.length, f).toBe(theirs.length);
        const keptLines = new Set((keep.get(f) ?? []).map((c) => before.get(f)!.slice(0, c.at).split('\n').length - 1));
        mine.forEach((line, i) => {
          if (line === theirs[i]) return;
          differing.push(`${f.slice(dir!.length + 1)}:${i + 1}`);
          // where they differ, ours is the input's line and holds a kept call
          expect(keptLines.has(i), `${f}:${i + 1}`).toBe(true);
          expect(line, `${f}:${i + 1}`).toBe(input[i]);
        });
      }
      // every kept call the codemod rewrites: the logger's, the audit trail's (not report.ts's: no McpServer import there)
      expect(differing).toEqual(['src/server.ts:12', 'src/server.ts:15', 'src/server.ts:21', 'src/server.ts:27', 'src/server.ts:35']);
    });

    it("keeps each line's own indentation where the codemod's printer moved it, and never a literal's text", () => {
      const source = [
        `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';`,
        `import { z } from 'zod';`,
        ``,
        `const server = new McpServer({ name: 'report', version: '1.0.0' });`,
        `server.tool('report', 'a multi-line report', { name: z.string() }, async ({ name }) => {`,
        `  const text = \`Report for \${name}:`,
        `  line two`,
        `      line three\`;`,
        `  if (name === '') {`,
        `    return { content: [{ type: 'text', text: 'nothing' }] };`,
        `  }`,
        `  return { content: [{ type: 'text', text }] };`,
        `});`,
        ``,
      ].join('\n');
      dir = mkdtempSync(join(tmpdir(), 'mrtr-v1-indent-'));
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'report', dependencies: { '@modelcontextprotocol/sdk': '^1.20.0' } }));
      writeFileSync(join(dir, 'src/server.ts'), source);
      const ours = migrateV1Source({ source, path: join(dir, 'src/server.ts'), projectType: 'server' }).source;
      run(getMigration('v1-to-v2')!, { targetDir: dir });
      const codemod = readFileSync(join(dir, 'src/server.ts'), 'utf8');
      // the codemod alone pushes the handler's body right
      expect(codemod).toContain(`\n      if (name === '') {`);
      const oursLines = ours.split('\n');
      expect(oursLines[4]).toMatch(/^server\.registerTool\('report', \{/);
      // every line after the rewritten call is the input's, indentation included: the literal's too
      expect(oursLines.slice(5)).toEqual(source.split('\n').slice(5));
    });
  });
});

describe('files the codemod alone would leave calling removed v1 APIs', () => {
  const TOOL_MODULE = [
    `import { z } from 'zod';`,
    `export function registerEcho(server: { tool: Function }) {`,
    `  server.tool('echo', { text: z.string() }, async ({ text }: { text: string }) => ({ content: [{ type: 'text' as const, text }] }));`,
    `}`,
    ``,
  ].join('\n');

  it('migrates a tool module that receives the server as a parameter and imports no SDK', () => {
    const r = migrateV1Source({ source: TOOL_MODULE, path: '/p/src/tools/echo.ts', projectType: 'server' });
    expect(r.changed).toBe(true);
    expect(r.source).toBe(TOOL_MODULE.replace(`server.tool('echo', { text: z.string() },`, `server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) },`));
    expect(r.v1OnlyCalls).toEqual([]);
    expect(r.source).not.toContain('mrtr-port-sentinel');
  });

  it('marks a v1 call on a receiver it cannot prove is a server, once', () => {
    const source = `function register(srv) {\n  srv.prompt('greet', async () => ({ messages: [] }));\n}\nmodule.exports = { register };\n`;
    const r = migrateV1Source({ source, path: '/p/tools.js', projectType: 'server' });
    expect(r.codemodMarkers).toBe(1);
    expect(r.v1OnlyCalls).toEqual([3]);
    const lines = r.source.split('\n');
    expect(lines[1]).toBe(`  /* @mcp-codemod-error (mrtr-port) srv.prompt() is SDK v1 API that SDK v2 removed; if srv is an McpServer this throws at start-up. Rewrite it as srv.registerPrompt(name, { description, argsSchema: z.object(shape) }, handler). */`);
    expect(lines[2]).toBe(`  srv.prompt('greet', async () => ({ messages: [] }));`);
    expect(countCodemodMarkers(r.source)).toBe(1);
    const again = migrateV1Source({ source: r.source, path: '/p/tools.js', projectType: 'server' });
    expect(again.source).toBe(r.source);
    expect(again.v1OnlyCalls).toEqual([3]);
  });

  it('migrates a CommonJS server: requires bridged to the codemod and back, still CommonJS, use strict first', () => {
    const source = [
      `'use strict';`,
      `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');`,
      `const { StdioServerTransport: Stdio } = require('@modelcontextprotocol/sdk/server/stdio.js');`,
      `const { z } = require('zod');`,
      `const server = new McpServer({ name: 'x', version: '1.0.0' });`,
      `server.tool('echo', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }));`,
      `server.connect(new Stdio());`,
      `module.exports = { server };`,
      ``,
    ].join('\n');
    const r = migrateV1Source({ source, path: '/p/server.cjs', projectType: 'server' });
    expect(r.source).not.toMatch(/^\s*import\s/m);
    expect(r.source).not.toContain('@modelcontextprotocol/sdk');
    expect(r.source.split('\n')[0]).toBe(`'use strict';`);
    expect(r.source).toContain(`const { McpServer } = require("@modelcontextprotocol/server");`);
    expect(r.source).toMatch(/const \{ StdioServerTransport: Stdio \} = require\("@modelcontextprotocol\/server\/stdio"\);/);
    expect(r.source).toContain(`const { z } = require('zod');`);
    expect(r.source).toContain(`server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) },`);
    expect(r.v1OnlyCalls).toEqual([]);
  });

  it('leaves a CommonJS file without MCP requires byte-identical', () => {
    const source = `const fs = require('fs');\nmodule.exports = () => fs.readFileSync('x');\n`;
    expect(migrateV1Source({ source, path: '/p/util.js' })).toMatchObject({ source, changed: false });
  });
});

describe('cjs-bridge', () => {
  it('turns top-level MCP and zod requires into imports and back, keeping the lines and untouched text', () => {
    const source = [
      `const { a, b: c } = require('@modelcontextprotocol/sdk/types.js');`,
      `const {`,
      `  McpServer,`,
      `} = require("@modelcontextprotocol/sdk/server/mcp.js")`,
      `const z = require('zod');`,
      `const fs = require('fs');`,
      `let { d } = require('@modelcontextprotocol/sdk/types.js');`,
      ``,
    ].join('\n');
    const bridged = requiresToImports(source, '/p/a.js');
    expect(bridged.split('\n')).toEqual([
      `import { a, b as c } from '@modelcontextprotocol/sdk/types.js';`,
      `import {`,
      `  McpServer,`,
      `} from "@modelcontextprotocol/sdk/server/mcp.js"`,
      `import * as z from 'zod';`,
      `const fs = require('fs');`,
      `let { d } = require('@modelcontextprotocol/sdk/types.js');`,
      ``,
    ]);
    // and back: byte for byte
    expect(importsToRequires(bridged, '/p/a.js', source)).toBe(source);
  });

  it('writes default, side-effect and mixed imports as requires', () => {
    const text = `import x from 'zod';\nimport 'zod/side';\nimport y, { q as r } from 'zod/v4';\n`;
    expect(importsToRequires(text, '/p/a.js', '')).toBe(`const x = require('zod');\nrequire('zod/side');\nconst y = require('zod/v4'), { q: r } = y;\n`);
  });
});

describe('findV1OnlyCalls', () => {
  it('finds v1 registrations by shape on any receiver, at their statement line', () => {
    const text = [
      `server.tool('a', async () => ({ content: [] }));`,
      `this.mcp.prompt(NAME, 'desc', { x: z.string() }, handler);`,
      `srv`,
      `  .resource('r', 'file:///x', async (uri) => ({ contents: [] }));`,
      `cli.tool(value);`,
      `config.tool('name', settings);`,
      `server.registerTool('b', {}, async () => ({ content: [] }));`,
    ].join('\n');
    expect(findV1OnlyCalls(text, '/p/a.ts')).toEqual([
      { line: 1, method: 'tool', receiver: 'server' },
      { line: 2, method: 'prompt', receiver: 'this.mcp' },
      { line: 3, method: 'resource', receiver: 'srv' },
    ]);
  });
});

describe('runPort on a v1 package whose tool modules import no SDK', () => {
  let dir: string;
  afterEach(() => removeDir(dir));

  it('migrates them with the server, and drops SDK v1 from package.json only once no file calls v1 API', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mrtr-port-v1-tools-'));
    const write = (rel: string, text: string) => {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    };
    write('package.json', JSON.stringify({ name: 'tools', type: 'module', dependencies: { '@modelcontextprotocol/sdk': '^1.20.0', zod: '^3.25.0' } }, null, 2) + '\n');
    write('src/server.ts', [
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';`,
      `import { registerEcho } from './tools/echo.js';`,
      `export const server = new McpServer({ name: 'tools', version: '1.0.0' });`,
      `registerEcho(server);`,
      ``,
    ].join('\n'));
    write('src/tools/echo.ts', [
      `import { z } from 'zod';`,
      `export function registerEcho(server: { tool: Function }) {`,
      `  server.tool('echo', { text: z.string() }, async ({ text }: { text: string }) => ({ content: [{ type: 'text' as const, text }] }));`,
      `}`,
      ``,
    ].join('\n'));
    const result = await runPort({ cwd: dir, paths: ['.'] });
    expect(result.files.find((f) => f.file === 'src/tools/echo.ts')).toMatchObject({ status: 'changed', v1Migrated: true });
    expect(readFileSync(join(dir, 'src/tools/echo.ts'), 'utf8')).toContain(`server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) },`);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies['@modelcontextprotocol/sdk']).toBeUndefined();
    expect(manifest.dependencies).toMatchObject({ '@modelcontextprotocol/server': '^2.4.0', zod: '^4.2.0' });
    expect(result.nextSteps.map((s) => s.id)).toEqual(expect.arrayContaining(['install', 'zod-4']));
  }, 120_000);
});
