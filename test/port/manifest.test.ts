import { describe, expect, it } from 'vitest';
import { importedPackages, updateManifest, type ManifestNeeds } from '../../src/port/manifest.js';

const V1 = `{
    "name": "srv",
    "dependencies": {
        "@modelcontextprotocol/sdk": "1.32.2",
        "express": "^5.0.0"
    }
}
`;

const migrated = (...imported: string[]): ManifestNeeds => ({ imported: new Set(imported), migratedV1: true });

describe('importedPackages', () => {
  it('lists the MCP packages and zod a source imports, by package name', () => {
    const text = [
      `import { McpServer } from "@modelcontextprotocol/server";`,
      `import { ElicitResultSchema } from '@modelcontextprotocol/core';`,
      `import * as z from 'zod';`,
      `import { x } from 'zod/v4';`,
      `const { y } = require('@modelcontextprotocol/node');`,
      `const s = "@modelcontextprotocol/client is mentioned in a string";`,
    ].join('\n');
    expect([...importedPackages(text)].sort()).toEqual(['@modelcontextprotocol/core', '@modelcontextprotocol/node', '@modelcontextprotocol/server', 'zod']);
  });
});

describe('updateManifest after an SDK v1 migration', () => {
  it('swaps SDK v1 for the v2 packages the sources import, in the same section, keeping indent and order', () => {
    const edit = updateManifest(V1, migrated('@modelcontextprotocol/server', '@modelcontextprotocol/core'))!;
    expect(edit.added).toEqual({ '@modelcontextprotocol/core': '^2.4.0', '@modelcontextprotocol/server': '^2.4.0' });
    expect(edit.removed).toEqual(['@modelcontextprotocol/sdk']);
    expect(edit.text).toBe(`{
    "name": "srv",
    "dependencies": {
        "@modelcontextprotocol/core": "^2.4.0",
        "@modelcontextprotocol/server": "^2.4.0",
        "express": "^5.0.0"
    }
}
`);
  });

  it('keeps SDK v1 while files the run did not scan import it, and names them', () => {
    const edit = updateManifest(V1, { ...migrated('@modelcontextprotocol/server'), v1ImportersOutside: ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts'] })!;
    expect(edit.removed).toEqual([]);
    expect(edit.added).toEqual({ '@modelcontextprotocol/server': '^2.4.0' });
    expect(edit.kept).toEqual([
      { name: '@modelcontextprotocol/sdk', reason: 'still imported by files this run did not port (src/a.ts, src/b.ts, src/c.ts and 1 more); port them too, then remove it' },
    ]);
    expect(JSON.parse(edit.text).dependencies['@modelcontextprotocol/sdk']).toBe('1.32.2');
  });

  it('adds the other v2 packages the codemod routes imports to (node, express, server-legacy), not "by hand"', () => {
    const edit = updateManifest(
      V1,
      migrated('@modelcontextprotocol/server', '@modelcontextprotocol/node', '@modelcontextprotocol/server-legacy', '@modelcontextprotocol/express', '@modelcontextprotocol/core-internal'),
    )!;
    expect(edit.added).toEqual({
      '@modelcontextprotocol/express': '^2.0.2',
      '@modelcontextprotocol/node': '^2.1.2',
      '@modelcontextprotocol/server': '^2.4.0',
      '@modelcontextprotocol/server-legacy': '^2.3.1',
    });
    expect(edit.unknown).toEqual([]);
  });

  it('reports an MCP package it has no version for', () => {
    expect(updateManifest(V1, migrated('@modelcontextprotocol/server', '@modelcontextprotocol/ext-apps'))!.unknown).toEqual(['@modelcontextprotocol/ext-apps']);
  });

  it('adds zod when migrated code imports it and nothing declares it; keeps a declared zod 4', () => {
    expect(updateManifest(V1, migrated('@modelcontextprotocol/server', 'zod'))!.added).toMatchObject({ zod: '^4.2.0' });
    const withZod = V1.replace('"express": "^5.0.0"', '"express": "^5.0.0",\n        "zod": "4.6.7"');
    const edit = updateManifest(withZod, migrated('zod', '@modelcontextprotocol/server'))!;
    expect(edit.added).toEqual({ '@modelcontextprotocol/server': '^2.4.0' });
    expect(edit.updated).toEqual({});
  });

  it('raises zod 3 to ^4.2.0 where it is declared, with a note', () => {
    const withZod3 = V1.replace('"express": "^5.0.0"', '"express": "^5.0.0"\n    },\n    "devDependencies": {\n        "zod": "^3.23.8"');
    const edit = updateManifest(withZod3, migrated('zod', '@modelcontextprotocol/server'))!;
    expect(edit.updated).toEqual({ zod: { from: '^3.23.8', to: '^4.2.0' } });
    expect(edit.notes.join('\n')).toMatch(/zod "\^3\.23\.8" → "\^4\.2\.0": SDK v2 needs zod >= 4\.2/);
    expect(JSON.parse(edit.text).devDependencies.zod).toBe('^4.2.0');
  });

  it.each([
    ['^3.23.8', true],
    ['3.x', true],
    ['<4', true],
    ['~4.1.0', true],
    ['4.1.5', true],
    ['>=3.20.0 <4.2.0', true],
    ['^3.0.0 || ^4.0.0', false],
    ['^4.1.0', false],
    ['>=3', false],
    ['latest', false],
    ['*', false],
  ])('zod %s is raised: %s', (range, raised) => {
    const manifest = JSON.stringify({ dependencies: { '@modelcontextprotocol/sdk': '1.32.2', zod: range } });
    const edit = updateManifest(manifest, migrated('zod', '@modelcontextprotocol/server'))!;
    expect(edit.updated.zod !== undefined).toBe(raised);
  });

  it('keeps SDK v1 while a source still imports it', () => {
    const edit = updateManifest(V1, migrated('@modelcontextprotocol/sdk', '@modelcontextprotocol/server'))!;
    expect(edit.removed).toEqual([]);
    expect(edit.kept).toEqual([{ name: '@modelcontextprotocol/sdk', reason: 'a source file still imports it' }]);
    expect(JSON.parse(edit.text).dependencies['@modelcontextprotocol/sdk']).toBe('1.32.2');
  });

  it('keeps SDK v1 while a file still calls a removed v1 API, naming the files', () => {
    const edit = updateManifest(V1, { ...migrated('@modelcontextprotocol/server'), v1CallsLeft: ['src/tools/echo.js'] })!;
    expect(edit.removed).toEqual([]);
    expect(edit.kept[0].reason).toContain('src/tools/echo.js');
    expect(edit.added).toEqual({ '@modelcontextprotocol/server': '^2.4.0' });
  });

  it('removes SDK v1 only when this run migrated the package', () => {
    expect(updateManifest(V1, { imported: new Set(['@modelcontextprotocol/server']), migratedV1: false })!.removed).toEqual([]);
  });

  it('keeps CRLF line endings and a tab indent', () => {
    const crlf = '{\r\n\t"dependencies": {\r\n\t\t"@modelcontextprotocol/sdk": "1.32.2"\r\n\t}\r\n}\r\n';
    const edit = updateManifest(crlf, migrated('@modelcontextprotocol/server'))!;
    expect(edit.text).toBe('{\r\n\t"dependencies": {\r\n\t\t"@modelcontextprotocol/server": "^2.4.0"\r\n\t}\r\n}\r\n');
  });
});

describe('updateManifest of a package already on SDK v2', () => {
  const V2 = (server: string, zod = '^4.3.0') => JSON.stringify({ dependencies: { '@modelcontextprotocol/server': server, zod } }, null, 2) + '\n';

  it('raises @modelcontextprotocol/server below 2.4.0 (the MRTR API) to ^2.4.0', () => {
    const edit = updateManifest(V2('^2.1.0'), { imported: new Set(['@modelcontextprotocol/server']), migratedV1: false })!;
    expect(edit.updated).toEqual({ '@modelcontextprotocol/server': { from: '^2.1.0', to: '^2.4.0' } });
    expect(JSON.parse(edit.text).dependencies['@modelcontextprotocol/server']).toBe('^2.4.0');
  });

  it('leaves a server range that is 2.4 or later, and adds nothing else', () => {
    expect(updateManifest(V2('^2.4.0'), { imported: new Set(['@modelcontextprotocol/server', '@modelcontextprotocol/client', 'zod']), migratedV1: false })).toBeUndefined();
    expect(updateManifest(V2('2.5.1'), { imported: new Set(['@modelcontextprotocol/server']), migratedV1: false })).toBeUndefined();
  });

  it('says so when it cannot read the server range', () => {
    const edit = updateManifest(V2('workspace:*'), { imported: new Set(['@modelcontextprotocol/server']), migratedV1: false })!;
    expect(edit.notes[0]).toContain('"workspace:*"');
    expect(edit.text).toBe(V2('workspace:*'));
  });

  it('raises zod 3 next to the v2 server', () => {
    const edit = updateManifest(V2('^2.4.0', '^3.22.0'), { imported: new Set(['@modelcontextprotocol/server', 'zod']), migratedV1: false })!;
    expect(edit.updated).toEqual({ zod: { from: '^3.22.0', to: '^4.2.0' } });
  });

  it('adds the server when the ported code imports it and the manifest does not declare it', () => {
    const edit = updateManifest('{ "name": "x" }', { imported: new Set(['@modelcontextprotocol/server']), migratedV1: false })!;
    expect(edit.added).toEqual({ '@modelcontextprotocol/server': '^2.4.0' });
    expect(JSON.parse(edit.text)).toEqual({ name: 'x', dependencies: { '@modelcontextprotocol/server': '^2.4.0' } });
  });

  it('adds the packages the helpers import (redis for --claims redis) to dependencies, even when SDK v1 sat in devDependencies', () => {
    const helperPackages = new Set(['redis', '@modelcontextprotocol/server']);
    const onV2 = updateManifest(V2('^2.4.0'), { imported: new Set(['@modelcontextprotocol/server']), migratedV1: false, helperPackages })!;
    expect(onV2.added).toEqual({ redis: '6.3.1' });
    expect(JSON.parse(onV2.text).dependencies).toEqual({ '@modelcontextprotocol/server': '^2.4.0', redis: '6.3.1', zod: '^4.3.0' });
    const dev = JSON.stringify({ devDependencies: { '@modelcontextprotocol/sdk': '^1.20.0' } });
    const migratedDev = updateManifest(dev, { imported: new Set(['@modelcontextprotocol/server']), migratedV1: true, helperPackages })!;
    expect(JSON.parse(migratedDev.text)).toEqual({ devDependencies: { '@modelcontextprotocol/server': '^2.4.0' }, dependencies: { redis: '6.3.1' } });
    // declared anywhere already: left as it is
    const declared = JSON.stringify({ dependencies: { '@modelcontextprotocol/server': '^2.4.0', redis: '^5.0.0' } });
    expect(updateManifest(declared, { imported: new Set(['@modelcontextprotocol/server']), migratedV1: false, helperPackages })).toBeUndefined();
  });

  it('adds @types/node for TypeScript helpers to devDependencies when no section declares it, with a note', () => {
    const helperPackages = new Set(['@types/node', '@modelcontextprotocol/server']);
    const edit = updateManifest(V2('^2.4.0'), { imported: new Set(['@modelcontextprotocol/server']), migratedV1: false, helperPackages })!;
    expect(edit.added).toEqual({ '@types/node': '20.19.43' });
    expect(JSON.parse(edit.text).devDependencies).toEqual({ '@types/node': '20.19.43' });
    expect(JSON.parse(edit.text).dependencies).toEqual(JSON.parse(V2('^2.4.0')).dependencies);
    expect(edit.notes).toEqual([expect.stringMatching(/^@types\/node added to devDependencies/)]);
    // after a v1 migration from devDependencies the v2 server goes there too, next to the types
    const dev = JSON.stringify({ devDependencies: { '@modelcontextprotocol/sdk': '^1.20.0' } });
    const migrated = updateManifest(dev, { imported: new Set(['@modelcontextprotocol/server']), migratedV1: true, helperPackages })!;
    expect(JSON.parse(migrated.text)).toEqual({ devDependencies: { '@modelcontextprotocol/server': '^2.4.0', '@types/node': '20.19.43' } });
    // declared in any section (a user's own Node release): left as it is
    const declared = JSON.stringify({ dependencies: { '@modelcontextprotocol/server': '^2.4.0', '@types/node': '^22.0.0' } });
    expect(updateManifest(declared, { imported: new Set(['@modelcontextprotocol/server']), migratedV1: false, helperPackages })).toBeUndefined();
  });

  it('leaves a manifest that has nothing to do with MCP alone', () => {
    expect(updateManifest('{ "dependencies": { "zod": "^3.0.0" } }', { imported: new Set(['zod']), migratedV1: false })).toBeUndefined();
  });

  it('throws on a package.json that is not JSON, or not an object', () => {
    expect(() => updateManifest('{ nope', migrated())).toThrow();
    expect(() => updateManifest('[1]', migrated())).toThrow(/not a JSON object/);
  });
});
