import { describe, expect, it } from 'vitest';
import { findSdkCodemodMarkers, scanMarkers } from '../../src/cli/markers-scan.js';
import { tempDir, writeTree } from './helpers.js';
import path from 'node:path';

describe('scanMarkers', () => {
  it('collects outstanding todo markers sorted by file and position, counts acknowledged ones', async () => {
    const root = tempDir();
    writeTree(root, {
      'b.ts': 'const a = 1;\n  /* @mrtr-port-todo(in-loop): unroll it */\nfor (;;) {}\n',
      'a.ts': [
        '// @mrtr-port-ignore reviewed: asked once per tag on purpose',
        '/* @mrtr-port-todo(in-loop): ask for all tags in one form */',
        'x();',
        '/* @mrtr-port-todo(raced): decide the timeout fallback */',
        'y();',
        'const s = "@mrtr-port-todo(in-loop): in a string, not a comment";',
      ].join('\r\n'),
      'c.ts': 'export {};\n',
    });
    const scan = await scanMarkers(root, ['b.ts', 'a.ts', 'c.ts'].map((f) => path.join(root, f)));
    expect(scan.acknowledged).toBe(1);
    expect(scan.markers).toEqual([
      { file: 'a.ts', line: 4, column: 1, reason: 'raced', message: 'decide the timeout fallback' },
      { file: 'b.ts', line: 2, column: 3, reason: 'in-loop', message: 'unroll it' },
    ]);
  });
});

describe('findSdkCodemodMarkers', () => {
  it('finds the official codemod marker where it opens a block comment, not in prose or strings', () => {
    const text = [
      'const msg = "@mcp-codemod-error is what the codemod writes";',
      '    /* @mcp-codemod-error The context object is forwarded to confirm(…) */',
      '/*@mcp-codemod-error check this*/ call();',
      '        // @mcp-codemod-error comment in the saved file (wrapped prose, not a marker)',
      '/*',
      ' * the inserted @mcp-codemod-error comment is checked below',
      ' */',
      '// prose that mentions @mcp-codemod-error mid-sentence',
    ].join('\n');
    expect(findSdkCodemodMarkers(text)).toEqual([
      { line: 2, column: 5, reason: 'mcp-codemod-error', message: 'The context object is forwarded to confirm(…)' },
      { line: 3, column: 1, reason: 'mcp-codemod-error', message: 'check this' },
    ]);
  });
});
