/**
 * Looking inside a `requestState` from the outside: decode what a client can decode (JSON, base64,
 * base64url, each `.`-separated segment, gzip/deflate inside), tell readable parts from opaque ones
 * (a MAC, a signature, ciphertext), and make tampered copies of it.
 */
import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { isRecord } from './outcome.js';

/** A part of the state a client can read. */
export interface ReadablePart {
  /** Which `.`-separated segment (0-based), or -1 for the whole state. */
  segment: number;
  encoding: 'json' | 'base64' | 'base64url' | 'compressed';
  text: string;
  json?: unknown;
}

export interface DecodedState {
  readable: ReadablePart[];
  /** Segments that decode to 16 bytes or more of binary: a MAC, a signature or ciphertext. */
  opaqueSegments: number[];
}

const MIN_OPAQUE_BYTES = 16;
const BASE64_CHARS = /^[A-Za-z0-9+/_-]+={0,2}$/;

export function decodeState(state: string): DecodedState {
  const whole = parseJson(state);
  if (whole !== undefined) return { readable: [{ segment: -1, encoding: 'json', text: state, json: whole }], opaqueSegments: [] };
  const decoded: DecodedState = { readable: [], opaqueSegments: [] };
  state.split('.').forEach((segment, index) => {
    const json = parseJson(segment);
    if (json !== undefined) {
      decoded.readable.push({ segment: index, encoding: 'json', text: segment, json });
      return;
    }
    if (segment.length < 4 || !BASE64_CHARS.test(segment)) return;
    const bytes = Buffer.from(segment, 'base64');
    const encoding = /[-_]/.test(segment) || !/[+/=]/.test(segment) ? 'base64url' : 'base64';
    const text = printable(bytes);
    if (text !== undefined) {
      decoded.readable.push({ segment: index, encoding, text, ...jsonField(text) });
      return;
    }
    const inflated = decompressed(bytes);
    if (inflated !== undefined) {
      decoded.readable.push({ segment: index, encoding: 'compressed', text: inflated, ...jsonField(inflated) });
      return;
    }
    if (bytes.length >= MIN_OPAQUE_BYTES) decoded.opaqueSegments.push(index);
  });
  return decoded;
}

/** A tampered copy of a state and where it was changed. */
export interface TamperedState {
  label: string;
  state: string;
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const MAX_CONTENT_TAMPERS = 12;

/**
 * One character changed at the first, middle and last base64 position after a version prefix (`v1.`),
 * then, for each readable JSON part, each value changed in turn (one character of a string, a number
 * plus one, a boolean flipped) and the part encoded back the way it came: a signed state must refuse
 * all of them, an unsigned one gives itself away.
 */
export function tamperedStates(state: string): TamperedState[] {
  const variants: TamperedState[] = [];
  const firstDot = state.indexOf('.');
  const skipPrefix = firstDot > 0 && firstDot <= 4 ? firstDot : -1;
  const positions = [...state].flatMap((ch, i) => (i > skipPrefix && /[A-Za-z0-9_-]/.test(ch) ? [i] : []));
  const picks = positions.length === 0 ? [] : [positions[0], positions[Math.floor(positions.length / 2)], positions[positions.length - 1]];
  for (const [name, at] of [...new Set(picks)].map((at, i) => [['first', 'middle', 'last'][i], at] as const)) {
    variants.push({ label: `character ${at + 1} of ${state.length} (${name}) changed`, state: state.slice(0, at) + flipSextet(state[at]) + state.slice(at + 1) });
  }
  const segments = state.split('.');
  for (const part of decodeState(state).readable) {
    if (part.json === undefined || part.encoding === 'compressed') continue;
    for (const { path, value } of leaves(part.json)) {
      if (variants.length >= picks.length + MAX_CONTENT_TAMPERS) break;
      const changed = setAt(part.json, path, changedLeaf(value));
      const encoded = encodeLike(JSON.stringify(changed), part.encoding);
      const tampered = part.segment === -1 ? encoded : segments.map((s, i) => (i === part.segment ? encoded : s)).join('.');
      if (tampered !== state) variants.push({ label: `${describePath(path)} changed in the readable state`, state: tampered });
    }
  }
  return variants;
}

/** Changes the top bit of a base64 digit: always a significant bit, even in a segment's last character. */
function flipSextet(ch: string): string {
  const index = BASE64_ALPHABET.indexOf(ch);
  return index === -1 ? (ch === 'A' ? 'B' : 'A') : BASE64_ALPHABET[index ^ 32];
}

type Leaf = string | number | boolean;

function changedLeaf(value: Leaf): Leaf {
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  return changeOneCharacter(value);
}

function changeOneCharacter(text: string): string {
  if (text.length === 0) return 'x';
  const at = Math.floor(text.length / 2);
  const ch = text[at];
  const replacement = /[0-8]/.test(ch) ? String(Number(ch) + 1) : ch === '9' ? '0' : ch === 'x' ? 'y' : 'x';
  return text.slice(0, at) + replacement + text.slice(at + 1);
}

type Path = (string | number)[];

function leaves(value: unknown, path: Path = []): { path: Path; value: Leaf }[] {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return [{ path, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  if (isRecord(value)) return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [];
}

function setAt(value: unknown, path: Path, leaf: Leaf): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? setAt(v, rest, leaf) : v));
  if (isRecord(value)) return { ...value, [head]: setAt(value[head as string], rest, leaf) };
  return value;
}

function describePath(path: Path): string {
  return `$${path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')}`;
}

function encodeLike(text: string, encoding: ReadablePart['encoding']): string {
  if (encoding === 'base64url') return Buffer.from(text, 'utf8').toString('base64url');
  if (encoding === 'base64') return Buffer.from(text, 'utf8').toString('base64');
  return text;
}

function parseJson(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function jsonField(text: string): { json?: unknown } {
  const json = parseJson(text);
  return json === undefined ? {} : { json };
}

/** The bytes as text when they are valid UTF-8 made of printable characters (tabs and newlines allowed). */
function printable(bytes: Buffer): string | undefined {
  if (bytes.length === 0) return undefined;
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD')) return undefined;
  return /^[\P{C}\t\n\r]*$/u.test(text) ? text : undefined;
}

function decompressed(bytes: Buffer): string | undefined {
  for (const inflate of [gunzipSync, inflateSync, inflateRawSync]) {
    try {
      const text = printable(inflate(bytes));
      if (text !== undefined) return text;
    } catch {
      // not this format
    }
  }
  return undefined;
}
