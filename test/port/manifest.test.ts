import { describe, expect, it } from 'vitest';
import { importedPackages, updateManifest } from '../../src/port/manifest.js';

const V1 = `{
    "name": "srv",
    "dependencies": {
        "@modelcontextprotocol/sdk": "1.32.2",
        "express": "^5.0.0"
    }
}
`;

describe('importedPackages', () => {
  it('lists the MCP packages and zod a source imports, by package name', () => {
    const text = [
      `import { McpServer } from "@modelcontextprotocol/server";`,
      `import { ElicitResultSchema } from '@modelcontextprotocol/core';`,
      `import * as z from 'zod';`,
      `import { x } from 'zod/v4';`,
      `const s = "@modelcontextprotocol/client is mentioned in a string";`,
    ].join('\n');
    expect([...importedPackages(text)].sort()).toEqual(['@modelcontextprotocol/core', '@modelcontextprotocol/server', 'zod']);
  });
});

describe('updateManifest', () => {
  it('swaps SDK v1 for the v2 packages the sources import, in the same section, keeping indent and order', () => {
    const edit = updateManifest(V1, new Set(['@modelcontextprotocol/server', '@modelcontextprotocol/core']))!;
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

  it('adds zod when migrated code imports it and nothing declares it; keeps a declared zod', () => {
    expect(updateManifest(V1, new Set(['@modelcontextprotocol/server', 'zod']))!.added).toMatchObject({ zod: '^4.2.0' });
    const withZod = V1.replace('"express": "^5.0.0"', '"express": "^5.0.0",\n        "zod": "4.6.7"');
    expect(updateManifest(withZod, new Set(['zod', '@modelcontextprotocol/server']))!.added).toEqual({ '@modelcontextprotocol/server': '^2.4.0' });
  });

  it('keeps SDK v1 while a source still imports it, and reports packages it has no version for', () => {
    const edit = updateManifest(V1, new Set(['@modelcontextprotocol/sdk', '@modelcontextprotocol/server', '@modelcontextprotocol/express']))!;
    expect(edit.removed).toEqual([]);
    expect(edit.unknown).toEqual(['@modelcontextprotocol/express']);
    expect(JSON.parse(edit.text).dependencies['@modelcontextprotocol/sdk']).toBe('1.32.2');
  });

  it('leaves a manifest that does not declare SDK v1 alone', () => {
    expect(updateManifest('{ "dependencies": { "@modelcontextprotocol/server": "2.4.0" } }', new Set(['@modelcontextprotocol/server']))).toBeUndefined();
  });

  it('throws on a package.json that is not JSON', () => {
    expect(() => updateManifest('{ nope', new Set())).toThrow();
  });
});
