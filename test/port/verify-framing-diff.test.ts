import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { describe, expect, it } from 'vitest';
import { fileDiff, newFileDiff } from '../../src/port/diff.js';
import { framingOf, restoreFraming } from '../../src/port/framing.js';
import { firstParseProblem } from '../../src/port/verify.js';

describe('firstParseProblem', () => {
  it('accepts valid TS/TSX/JS and reports the first syntax error with its position', () => {
    expect(firstParseProblem('a.ts', 'const x: number = 1;\n')).toBeUndefined();
    expect(firstParseProblem('a.tsx', 'const x = <div>{1}</div>;\n')).toBeUndefined();
    expect(firstParseProblem('a.mjs', '#!/usr/bin/env node\nexport const x = 1;\n')).toBeUndefined();
    expect(firstParseProblem('a.ts', '\uFEFF#!/usr/bin/env node\r\nexport const x = 1;\r\n')).toBeUndefined();
    const p = firstParseProblem('a.ts', 'const x = 1;\nconst = 2;\nconst y = 3;\n');
    expect(p).toMatchObject({ line: 2 });
    expect(p!.message.length).toBeGreaterThan(0);
  });

  it('parses .ts files without JSX (a type assertion is not a tag)', () => {
    expect(firstParseProblem('a.ts', 'const x = <number>y;\n')).toBeUndefined();
    expect(firstParseProblem('a.tsx', 'const x = <number>y;\n')).toBeDefined();
  });
});

describe('restoreFraming', () => {
  it('puts back a lost BOM, shebang and CRLF endings', () => {
    const original = '\uFEFF#!/usr/bin/env node\r\nconst a = 1;\r\nconst b = 2;\r\n';
    const lost = 'const a = 1;\nconst c = 3;\n';
    expect(restoreFraming(original, lost)).toBe('\uFEFF#!/usr/bin/env node\r\nconst a = 1;\r\nconst c = 3;\r\n');
  });

  it('leaves kept framing and LF files alone', () => {
    const original = '#!/usr/bin/env node\nconst a = 1;\n';
    const out = '#!/usr/bin/env node\nconst a = 2;\n';
    expect(restoreFraming(original, out)).toBe(out);
    expect(framingOf(original)).toEqual({ bom: false, shebang: '#!/usr/bin/env node\n', crlf: false });
  });

  it('does not double CR on output that already has CRLF', () => {
    const original = 'a\r\nb\r\n';
    expect(restoreFraming(original, 'a\r\nc\r\n')).toBe('a\r\nc\r\n');
  });
});

describe('diffs', () => {
  it('is a git-style unified diff with a/ and b/ paths, empty for equal texts', () => {
    const d = fileDiff('src/x.ts', 'a\nb\n', 'a\nc\n');
    expect(d.split('\n').slice(0, 3)).toEqual(['--- a/src/x.ts', '+++ b/src/x.ts', '@@ -1,2 +1,2 @@']);
    expect(d).toContain('-b\n+c\n');
    expect(fileDiff('src/x.ts', 'a\n', 'a\n')).toBe('');
  });

  it('names lines whose change is invisible: trailing white space, zero-width characters, or both', () => {
    const before = 'keep\n    a = 1;\nb\nc\u200B d\nvisible\n';
    const after = 'keep\n    a = 1; \u200B\t\nb\u2060\nc d\nchanged\n';
    const d = fileDiff('src/x.ts', before, after);
    expect(d.split('\n')[0]).toBe('# src/x.ts: only invisible characters (line ending, trailing white space, zero-width) change on new lines 2, 3, 4');
    // the notes sit above the very patch a plain unified diff gives
    expect(d.slice(d.indexOf('--- a/'))).toBe(createTwoFilesPatch('a/src/x.ts', 'b/src/x.ts', before, after, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY }));
  });

  it('shows a new file as a diff from /dev/null', () => {
    const d = newFileDiff('src/mrtr-continuation.ts', 'x\ny\n');
    expect(d.split('\n').slice(0, 3)).toEqual(['--- /dev/null', '+++ b/src/mrtr-continuation.ts', '@@ -0,0 +1,2 @@']);
  });
});
