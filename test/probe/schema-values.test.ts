/** Answers generated from an elicitation's requestedSchema are valid for it: checked with ajv, formats included. */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { answersFor, SCRIPTED_SAMPLING_REPLY } from '../../src/probe/answers.js';
import { contentFor, valueFor } from '../../src/probe/schema-values.js';

const ajv = new Ajv({ strict: false });
(addFormatsModule as unknown as (a: Ajv) => Ajv)(ajv);

const FIELDS: Record<string, Record<string, unknown>> = {
  boolean: { type: 'boolean' },
  'integer in range': { type: 'integer', minimum: 3, maximum: 9 },
  'integer below a maximum': { type: 'integer', maximum: -4 },
  'integer exclusive bounds': { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 2 },
  'number with a minimum': { type: 'number', minimum: 0.5 },
  'number exclusive minimum': { type: 'number', exclusiveMinimum: 10, maximum: 11 },
  'string with lengths': { type: 'string', minLength: 20, maxLength: 25 },
  'short string': { type: 'string', maxLength: 3 },
  email: { type: 'string', format: 'email' },
  uri: { type: 'string', format: 'uri' },
  date: { type: 'string', format: 'date' },
  'date-time': { type: 'string', format: 'date-time' },
  enum: { type: 'string', enum: ['low', 'high'] },
  'titled enum': { type: 'string', oneOf: [{ const: 'p1', title: 'Urgent' }, { const: 'p2', title: 'Later' }] },
  'multi-select': { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 2 },
  'titled multi-select': { type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }, { const: 'y', title: 'Y' }] } },
  'a valid default': { type: 'integer', minimum: 1, maximum: 5, default: 4 },
  'a default outside the enum': { type: 'string', enum: ['on', 'off'], default: 'maybe' },
};

describe('values from a requestedSchema', () => {
  it.each(Object.entries(FIELDS))('%s: the generated value is valid', (_, field) => {
    const value = valueFor(field);
    expect(ajv.validate(field, value), `${JSON.stringify(value)}: ${ajv.errorsText()}`).toBe(true);
  });

  it('keeps a valid default, prefers enum values, and fills every property of the form', () => {
    expect(valueFor(FIELDS['a valid default'])).toBe(4);
    expect(valueFor(FIELDS['a default outside the enum'])).toBe('on');
    const schema = { type: 'object', properties: { ...FIELDS }, required: ['boolean', 'date'] };
    const content = contentFor(schema);
    expect(Object.keys(content)).toEqual(Object.keys(FIELDS));
    expect(ajv.validate(schema, content), ajv.errorsText()).toBe(true);
  });

  it('a form without properties gets empty content', () => {
    expect(contentFor({ type: 'object' })).toEqual({});
    expect(contentFor(undefined)).toEqual({});
  });
});

describe('answers to a round', () => {
  const requests = {
    form: { method: 'elicitation/create', params: { mode: 'form', message: 'ok?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } },
    link: { method: 'elicitation/create', params: { mode: 'url', message: 'sign in', url: 'https://example.com' } },
    model: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 10 } },
    roots: { method: 'roots/list' },
    odd: { method: 'tasks/get' },
  };

  it('accepts forms with content, URLs without, answers sampling with the script and roots with none', () => {
    const answers = answersFor(requests, 'accept');
    expect(answers.inputResponses).toEqual({
      form: { action: 'accept', content: { ok: true } },
      link: { action: 'accept' },
      model: SCRIPTED_SAMPLING_REPLY,
      roots: { roots: [] },
    });
    expect(answers.unanswerable).toEqual(['odd']);
    expect(answers.elicitations).toEqual(['form', 'link']);
  });

  it('declines or cancels every elicitation and still answers the rest', () => {
    const answers = answersFor(requests, 'cancel');
    expect(answers.inputResponses).toMatchObject({ form: { action: 'cancel' }, link: { action: 'cancel' }, roots: { roots: [] } });
    expect(Object.keys(answers.inputResponses)).toEqual(['form', 'link', 'model', 'roots']);
  });
});
