import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { canonicalJson } from '../../src/runtime/mrtr-continuation.js';

/** The same value with every object's keys in reverse insertion order. */
function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reorder(v)]));
  }
  return value;
}

describe('canonicalJson', () => {
  it.each<[string, unknown, string]>([
    ['sorted keys', { b: 1, a: 2 }, '{"a":2,"b":1}'],
    ['nested', { z: { y: [3, { b: true, a: null }] } }, '{"z":{"y":[3,{"a":null,"b":true}]}}'],
    ['undefined members dropped', { a: undefined, b: 1 }, '{"b":1}'],
    ['undefined in arrays is null', [undefined, 1], '[null,1]'],
    ['non-finite numbers are null', [NaN, Infinity], '[null,null]'],
    ['toJSON is honoured', { at: new Date(Date.UTC(2026, 0, 2)) }, '{"at":"2026-01-02T00:00:00.000Z"}'],
    ['top-level undefined', undefined, 'null'],
    ['strings escaped like JSON', { 'k"': 'line\nbreak' }, '{"k\\"":"line\\nbreak"}'],
  ])('%s', (_label, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('rejects cycles and bigints with a TypeError', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
    expect(() => canonicalJson({ n: 1n })).toThrow(/bigint/);
  });

  it('allows the same object twice when it is not its own ancestor', () => {
    const shared = { a: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"a":1},{"a":1}]');
  });

  it('property: parses back to the value, and key order never matters', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(reorder(value))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
