import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import * as z from 'zod';
import { elicitationAnswer } from '../../src/runtime/mrtr-continuation.js';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    ratio: { type: 'number', minimum: 0.5 },
    ok: { type: 'boolean' },
    color: { type: 'string', enum: ['red', 'green'] },
    size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
    legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'] },
    tags: { type: 'array', items: { type: 'string', enum: ['x', 'y', 'z'] }, minItems: 1, maxItems: 2 },
    titled: { type: 'array', items: { anyOf: [{ const: 'p', title: 'P' }, { const: 'q', title: 'Q' }] } },
  },
  required: ['name'],
};

const accept = (content: Record<string, unknown>) => ({ k: { action: 'accept', content } });

describe('elicitationAnswer', () => {
  it('decline and cancel come back as themselves, without content', () => {
    expect(elicitationAnswer({ k: { action: 'decline' } }, 'k', SCHEMA)).toEqual({ action: 'decline' });
    expect(elicitationAnswer({ k: { action: 'cancel', content: { name: 'x' } } }, 'k', SCHEMA)).toEqual({ action: 'cancel' });
  });

  it.each<[string, unknown, string]>([
    ['no responses', undefined, 'k'],
    ['responses not an object', 'accept', 'k'],
    ['responses an array', [{ action: 'accept' }], '0'],
    ['missing key', { other: { action: 'accept', content: { name: 'ab' } } }, 'k'],
    ['inherited key only', Object.create({ k: { action: 'accept', content: { name: 'ab' } } }), 'k'],
    ['not an elicitation answer (sampling result)', { k: { role: 'assistant', content: { type: 'text', text: 'hi' } } }, 'k'],
    ['unknown action', { k: { action: 'accepted', content: { name: 'ab' } } }, 'k'],
    ['wrapped {method,result}', { k: { method: 'elicitation/create', result: { action: 'accept' } } }, 'k'],
    ['accept with array content', { k: { action: 'accept', content: ['ab'] } }, 'k'],
  ])('undefined for %s', (_label, responses, key) => {
    expect(elicitationAnswer(responses, key, SCHEMA)).toBeUndefined();
  });

  it('accepts valid content and drops unknown properties', () => {
    const content = {
      name: 'Ada',
      email: 'ada@example.org',
      site: 'https://example.org/x',
      born: '2024-02-29',
      at: '2026-07-28T10:00:00Z',
      age: 36,
      ratio: 0.75,
      ok: false,
      color: 'green',
      size: 'l',
      legacy: 'b',
      tags: ['x', 'z'],
      titled: ['q'],
      extra: 'dropped',
    };
    const { extra: _dropped, ...kept } = content;
    expect(elicitationAnswer(accept(content), 'k', SCHEMA)).toEqual({ action: 'accept', content: kept });
  });

  it.each<[string, Record<string, unknown>]>([
    ['required missing', {}],
    ['required undefined', { name: undefined }],
    ['string too short', { name: 'A' }],
    ['string too long (code points)', { name: '\u{1F600}'.repeat(6) }],
    ['wrong type', { name: 12 }],
    ['bad email', { name: 'Ada', email: 'ada-at-example' }],
    ['bad uri', { name: 'Ada', site: 'not a uri' }],
    ['impossible date', { name: 'Ada', born: '2023-02-29' }],
    ['bad month', { name: 'Ada', born: '2023-13-01' }],
    ['bad date-time', { name: 'Ada', at: '2026-07-28T25:00:00Z' }],
    ['non-integer', { name: 'Ada', age: 1.5 }],
    ['below minimum', { name: 'Ada', age: -1 }],
    ['above maximum', { name: 'Ada', age: 151 }],
    ['NaN number', { name: 'Ada', ratio: NaN }],
    ['number as string', { name: 'Ada', age: '36' }],
    ['boolean as string', { name: 'Ada', ok: 'true' }],
    ['enum outside', { name: 'Ada', color: 'blue' }],
    ['oneOf outside', { name: 'Ada', size: 'm' }],
    ['legacy enum outside', { name: 'Ada', legacy: 'c' }],
    ['multi-select outside', { name: 'Ada', tags: ['w'] }],
    ['multi-select too many', { name: 'Ada', tags: ['x', 'y', 'z'] }],
    ['multi-select too few', { name: 'Ada', tags: [] }],
    ['multi-select not strings', { name: 'Ada', tags: [1] }],
    ['titled multi-select outside', { name: 'Ada', titled: ['r'] }],
  ])('undefined for an accept with %s', (_label, content) => {
    expect(elicitationAnswer(accept(content), 'k', SCHEMA)).toBeUndefined();
  });

  it('an accept without content is fine when nothing is required', () => {
    const schema = { type: 'object', properties: { note: { type: 'string' } } };
    expect(elicitationAnswer({ k: { action: 'accept' } }, 'k', schema)).toEqual({ action: 'accept', content: {} });
    expect(elicitationAnswer({ k: { action: 'accept' } }, 'k', SCHEMA)).toBeUndefined();
  });

  it('cannot vouch for what it does not understand: nested objects, unknown types, malformed schemas', () => {
    const nested = { type: 'object', properties: { address: { type: 'object' } } };
    expect(elicitationAnswer(accept({ address: { city: 'x' } }), 'k', nested)).toBeUndefined();
    expect(elicitationAnswer(accept({ name: 'ab' }), 'k', { type: 'array' })).toBeUndefined();
    expect(elicitationAnswer(accept({ name: 'ab' }), 'k', null)).toBeUndefined();
    expect(elicitationAnswer(accept({ name: 'ab' }), 'k', { properties: 'no' })).toBeUndefined();
  });

  it('keeps a property named __proto__ as data, never as a prototype', () => {
    const schema = { type: 'object', properties: { ['__proto__']: { type: 'string' } } };
    const content = JSON.parse('{"__proto__":"x"}') as Record<string, unknown>;
    const answer = elicitationAnswer({ k: { action: 'accept', content } }, 'k', schema);
    expect(answer?.action).toBe('accept');
    expect(Object.getPrototypeOf(answer!.content)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(answer!.content, '__proto__')?.value).toBe('x');
  });

  it('validates with a Standard Schema (zod) too, synchronously', () => {
    const schema = z.object({ confirm: z.boolean(), note: z.string().optional() });
    expect(elicitationAnswer(accept({ confirm: true, junk: 1 }), 'k', schema)).toEqual({ action: 'accept', content: { confirm: true } });
    expect(elicitationAnswer(accept({ confirm: 'yes' }), 'k', schema)).toBeUndefined();
    const asyncSchema = z.object({ confirm: z.boolean() }).refine(async () => true);
    expect(elicitationAnswer(accept({ confirm: true }), 'k', asyncSchema)).toBeUndefined();
  });

  it('property: never throws, whatever the responses, key and schema', () => {
    const anything = fc.anything({ withNullPrototype: true, withBigInt: true, withMap: true, withSet: true, withTypedArray: true });
    const answerLike = fc.record({ action: fc.constantFrom('accept', 'decline', 'cancel', 'x'), content: anything }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(anything, fc.dictionary(fc.string(), answerLike)), fc.string(), fc.oneof(anything, fc.constant(SCHEMA)), (responses, key, schema) => {
        const answer = elicitationAnswer(responses, key, schema);
        expect(answer === undefined || ['accept', 'decline', 'cancel'].includes(answer.action)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('property: never throws on hostile objects (throwing getters, proxies)', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
        ownKeys: () => {
          throw new Error('trap');
        },
        getOwnPropertyDescriptor: () => {
          throw new Error('trap');
        },
      },
    );
    expect(elicitationAnswer(hostile, 'k', SCHEMA)).toBeUndefined();
    expect(elicitationAnswer({ k: hostile }, 'k', SCHEMA)).toBeUndefined();
    expect(elicitationAnswer(accept({ name: 'Ada' }), 'k', hostile)).toBeUndefined();
  });

  it('property: whatever it accepts satisfies the schema it was given', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('name', 'age', 'ok', 'color', 'tags', 'other'), fc.jsonValue({ maxDepth: 1 })), (content) => {
        const answer = elicitationAnswer(accept(content), 'k', SCHEMA);
        if (answer?.action !== 'accept') return;
        const c = answer.content;
        expect(typeof c.name === 'string' && [...c.name].length >= 2 && [...c.name].length <= 5).toBe(true);
        if ('age' in c) expect(Number.isInteger(c.age) && (c.age as number) >= 0 && (c.age as number) <= 150).toBe(true);
        if ('color' in c) expect(['red', 'green']).toContain(c.color);
        expect('other' in c).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
