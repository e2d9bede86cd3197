/**
 * The official codemod's printer pushes the code it moves to the right; `restoreIndentation` gives every
 * line its own indentation back: lines it kept, and lines it rewrote.
 */
import { describe, expect, it } from 'vitest';
import { restoreIndentation } from '../../src/port/v1-indentation.js';

const none = new Set<number>();

describe('restoreIndentation', () => {
  it('gives a kept line, and a line rewritten in place, the indentation they had', () => {
    const before = ['f(() => {', '  const a = extra.x;', '  return a;', '});'].join('\n');
    const after = ['f(() => {', '      const a = ctx.x;', '      return a;', '});'].join('\n');
    expect(restoreIndentation(before, after, none)).toBe(['f(() => {', '  const a = ctx.x;', '  return a;', '});'].join('\n'));
  });

  it('shifts lines the rewrite added as far back as the shared line above them was pushed', () => {
    const before = ['\tg(async () => {', '\t\tconst r = await extra.sendRequest(q, S);', '\t\treturn r;', '\t});'].join('\n');
    const after = ['\tg(async () => {', '\t\t\t\tconst r = await ctx.mcpReq.send(', '\t\t\t\t\tq,', '\t\t\t\t);', '\t\t\t\treturn r;', '\t});'].join('\n');
    expect(restoreIndentation(before, after, none)).toBe(
      ['\tg(async () => {', '\t\tconst r = await ctx.mcpReq.send(', '\t\t\tq,', '\t\t);', '\t\treturn r;', '\t});'].join('\n'),
    );
  });

  it('leaves a line that starts inside a literal as the codemod wrote it', () => {
    const before = ['h(() => {', '  const t = `a', '    b`;', '});'].join('\n');
    const after = ['h(() => {', '    const t = `a', '    b`;', '});'].join('\n');
    expect(restoreIndentation(before, after, new Set([2]))).toBe(['h(() => {', '  const t = `a', '    b`;', '});'].join('\n'));
  });

  it('returns the codemod text itself when nothing moved', () => {
    const text = 'a();\n  b();\n';
    expect(restoreIndentation(text, text, none)).toBe(text);
    expect(restoreIndentation('x(extra);\n', 'x(ctx);\n', none)).toBe('x(ctx);\n');
  });
});
