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
    ['undefined members dropped (as absent: JSON has no undefined)', { a: undefined, b: 1 }, '{"b":1}'],
    ['negative zero apart from zero, still JSON', { a: -0, b: 0 }, '{"a":-0,"b":0}'],
    ['a null-prototype object', Object.assign(Object.create(null) as object, { k: 'v' }), '{"k":"v"}'],
    ['strings escaped like JSON', { 'k"': 'line\nbreak' }, '{"k\\"":"line\\nbreak"}'],
  ])('%s', (_label, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
    expect(() => JSON.parse(canonicalJson(value))).not.toThrow();
  });

  // Each of these would digest like a JSON value it is not (`null`, a string), so a state sealed for one
  // would open for the other: refused with an error that says where, never written as something else.
  it.each<[string, unknown, RegExp]>([
    ['Infinity (JSON.parse of 1e400)', { amount: JSON.parse('{"x":1e400}').x as number }, /\$\.amount is Infinity, not a JSON value/],
    ['-Infinity', [1, -Infinity], /\$\[1\] is -Infinity/],
    ['NaN', { n: NaN }, /\$\.n is NaN/],
    ['a bigint', { n: 1n }, /\$\.n is a bigint/],
    ['an undefined array item', [undefined, 1], /\$\[0\] is a undefined/],
    ['a sparse array', [, 1], /\$\[0\]/],
    ['a function member', { f: () => 1 }, /\$\.f is a function/],
    ['a symbol', { s: Symbol('s') }, /\$\.s is a symbol/],
    ['a Date (its toJSON would collide with the string)', { at: new Date(0) }, /\$\.at is a Date/],
    ['a Map', { m: new Map() }, /\$\.m is a Map/],
    ['a class instance', { c: new (class Money {})() }, /\$\.c is a Money/],
    ['undefined at the top', undefined, /\$ is a undefined/],
  ])('refuses %s with a TypeError naming the path', (_label, value, message) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
    expect(() => canonicalJson(value)).toThrow(message);
  });

  it('labels its errors with the caller', () => {
    expect(() => canonicalJson({ a: NaN }, 'bindRequest: args')).toThrow(/^bindRequest: args: \$\.a is NaN/);
  });

  it('rejects cycles with a TypeError', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
  });

  it('allows the same object twice when it is not its own ancestor', () => {
    const shared = { a: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"a":1},{"a":1}]');
  });

  it('property: parses back to the value, and key order never matters', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(value); // -0 included
        expect(canonicalJson(reorder(value))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('canonicalJson is injective on JSON values', () => {
  it('property: two values with the same canonical form are deeply equal (-0 and 0 told apart)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const same = canonicalJson(a) === canonicalJson(b);
        expect(same).toBe(deepEqualJson(a, b));
      }),
      { numRuns: 500 },
    );
  });
});

/** Deep equality of JSON values where -0 and 0 differ and key order does not matter. */
function deepEqualJson(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqualJson(item, b[i]));
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && deepEqualJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}
