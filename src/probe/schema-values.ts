/**
 * A valid value for each field of an elicitation's `requestedSchema` (the flat subset of JSON Schema MCP
 * allows: string with format/length/enum, number and integer with bounds, boolean, and multi-select
 * arrays of enum items). Deterministic, so a probe run can be repeated and compared.
 */
import { isRecord } from './outcome.js';

export type FieldValue = string | number | boolean | string[];

/** Content for every property of the schema (required and optional): what a user filling the form would send. */
export function contentFor(requestedSchema: unknown): Record<string, FieldValue> {
  const properties = isRecord(requestedSchema) && isRecord(requestedSchema.properties) ? requestedSchema.properties : {};
  const content: Record<string, FieldValue> = {};
  for (const [name, schema] of Object.entries(properties)) content[name] = valueFor(isRecord(schema) ? schema : {});
  return content;
}

export function valueFor(schema: Record<string, unknown>): FieldValue {
  const options = enumOptions(schema);
  if ('default' in schema && isFieldValue(schema.default) && (options === undefined || options.includes(String(schema.default)))) {
    return schema.default;
  }
  if (options !== undefined && options.length > 0 && schema.type !== 'array') return options[0];
  switch (schema.type) {
    case 'boolean':
      return true;
    case 'integer':
      return integerIn(schema);
    case 'number':
      return numberIn(schema);
    case 'array':
      return arrayValue(schema);
    default:
      return stringFor(schema);
  }
}

/** The allowed values of a single-select field: `enum`, or `oneOf`/`anyOf` of `{ const }` (titled enums). */
function enumOptions(schema: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  for (const field of ['oneOf', 'anyOf'] as const) {
    const list = schema[field];
    if (Array.isArray(list)) {
      const consts = list.filter(isRecord).filter((o) => 'const' in o).map((o) => String(o.const));
      if (consts.length > 0) return consts;
    }
  }
  return undefined;
}

function arrayValue(schema: Record<string, unknown>): string[] {
  const items = isRecord(schema.items) ? schema.items : {};
  const options = enumOptions(items) ?? [];
  const wanted = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : options.length;
  return options.slice(0, Math.min(wanted, max));
}

function integerIn(schema: Record<string, unknown>): number {
  const low = lowerBound(schema);
  const high = upperBound(schema);
  if (low !== undefined) return low.exclusive ? Math.floor(low.value) + 1 : Math.ceil(low.value);
  if (high === undefined) return 1;
  return Math.min(1, high.exclusive ? Math.ceil(high.value) - 1 : Math.floor(high.value));
}

function numberIn(schema: Record<string, unknown>): number {
  const low = lowerBound(schema);
  const high = upperBound(schema);
  if (low === undefined) return high === undefined ? 1 : Math.min(1, high.exclusive ? high.value - 1 : high.value);
  if (!low.exclusive) return low.value;
  return high === undefined ? low.value + 1 : (low.value + high.value) / 2;
}

/** `minimum` / `exclusiveMinimum` (the draft-4 boolean form too). */
function lowerBound(schema: Record<string, unknown>): { value: number; exclusive: boolean } | undefined {
  if (typeof schema.exclusiveMinimum === 'number') return { value: schema.exclusiveMinimum, exclusive: true };
  if (typeof schema.minimum === 'number') return { value: schema.minimum, exclusive: schema.exclusiveMinimum === true };
  return undefined;
}

function upperBound(schema: Record<string, unknown>): { value: number; exclusive: boolean } | undefined {
  if (typeof schema.exclusiveMaximum === 'number') return { value: schema.exclusiveMaximum, exclusive: true };
  if (typeof schema.maximum === 'number') return { value: schema.maximum, exclusive: schema.exclusiveMaximum === true };
  return undefined;
}

/** A string in the field's format, padded or cut to its length bounds. */
function stringFor(schema: Record<string, unknown>): string {
  const byFormat: Record<string, string> = {
    email: 'probe@example.com',
    uri: 'https://example.com/probe',
    date: '2030-06-15',
    'date-time': '2030-06-15T12:00:00Z',
  };
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  let text = format !== undefined && format in byFormat ? byFormat[format] : 'probe answer';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  if (text.length < min) text = text.padEnd(min, 'x');
  if (text.length > max && format === undefined) text = text.slice(0, Math.max(max, 1));
  return text;
}

function isFieldValue(value: unknown): value is FieldValue {
  return (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    (Array.isArray(value) && value.every((v) => typeof v === 'string'))
  );
}
