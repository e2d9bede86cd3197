import { describe, expect, it } from 'vitest';
import { mapLines } from '../../src/port/line-map.js';

describe('mapLines', () => {
  it('maps unchanged lines across insertions and removals', () => {
    const before = ['a', 'b', 'c', 'd'].join('\n');
    const after = ['a', 'new 1', 'new 2', 'b', 'd'].join('\n');
    const map = mapLines(before, after);
    expect([1, 2, 4].map(map)).toEqual([1, 4, 5]);
    expect(map(3)).toBe(5); // a removed line maps to where the text continues
  });

  it('maps a rewritten line to the most similar line of its hunk', () => {
    const before = ['x', '  if (server.server.getClientCapabilities()?.elicitation) {', 'y'].join('\r\n');
    const after = ['x', '  const bind = b();', '  const caps = c();', '  if (caps?.elicitation) {', 'y'].join('\r\n');
    expect(mapLines(before, after)(2)).toBe(4);
  });

  it('clamps lines outside the original', () => {
    const map = mapLines('a\nb', 'a\nb\nc');
    expect(map(0)).toBe(1);
    expect(map(99)).toBe(3);
  });
});
