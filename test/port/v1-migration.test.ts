import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMigration, run } from '@modelcontextprotocol/codemod';
import { afterEach, describe, expect, it } from 'vitest';
import { countCodemodMarkers, inferProjectType, isV1Source, migrateV1Source } from '../../src/port/v1-migration.js';
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

  it('keeps a byte-order mark', () => {
    const r = migrateV1Source({ source: '\uFEFF' + read('confirm.ts'), path: join(mini, 'confirm.ts'), projectType: 'server' });
    expect(r.source.startsWith('\uFEFFimport')).toBe(true);
    expect(r.source).toContain('extra: ServerContext');
  });

  describe('parity with the official codemod runner', () => {
    let dir: string | undefined;
    afterEach(() => dir && removeDir(dir));

    it('produces, file by file, the text `run()` writes for the same project', () => {
      dir = copyFixture('port', 'v1-mini');
      const before = new Map(readdirSync(join(dir, 'src')).map((f) => [f, readFileSync(join(dir!, 'src', f), 'utf8')]));
      const ours = new Map(
        [...before].map(([f, text]) => [f, migrateV1Source({ source: text, path: join(dir!, 'src', f), projectType: inferProjectType(before.values()) }).source]),
      );
      run(getMigration('v1-to-v2')!, { targetDir: dir });
      for (const [f, text] of ours) expect(text, f).toBe(readFileSync(join(dir, 'src', f), 'utf8'));
    });
  });
});
