/**
 * Source bytes ⇄ text without losing a byte. A file is decoded only when its encoding is certain and
 * the bytes are valid in it: UTF-8 (with or without a byte-order mark), or UTF-16 LE/BE announced by
 * a byte-order mark. Anything else (Latin-1 bytes in a "UTF-8" file, UTF-16 without a mark, binary
 * data) is refused with a reason instead of being decoded with replacement characters, which would
 * re-encode the untouched parts of the file on write. Shared by the port (read, write, diff) and the
 * analyzer (`analyze`, `check`).
 *
 * The decoded text keeps the byte-order mark as U+FEFF, so `encode(decode(bytes).text, encoding)`
 * gives back exactly `bytes`; the port's framing stage keeps the mark where it was.
 */
export type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export type Decoded = { ok: true; text: string; encoding: Encoding } | { ok: false; reason: string };

/** Skip reasons start with this (the report counts skipped files by the text before the first `:`). */
export const ENCODING_SKIP_PREFIX = 'encoding';

const UTF16LE_BOM = [0xff, 0xfe] as const;
const UTF16BE_BOM = [0xfe, 0xff] as const;

export function decode(bytes: Uint8Array): Decoded {
  const encoding = detectEncoding(bytes);
  if (encoding === 'utf-8' && bytes.includes(0)) {
    // NUL never appears in source text; it does in UTF-16 without a mark and in binary files
    return refuse('NUL bytes: binary, or UTF-16 without a byte-order mark (add one, or convert the file to UTF-8)');
  }
  let text: string;
  try {
    // fatal: invalid bytes throw instead of becoming U+FFFD; ignoreBOM: the mark stays in the text
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return refuse(invalidReason(bytes, encoding));
  }
  return { ok: true, text, encoding };
}

/** The bytes of `text` in `encoding` (a leading U+FEFF is written as that encoding's byte-order mark). */
export function encode(text: string, encoding: Encoding): Buffer {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
  const le = Buffer.from(text, 'utf16le');
  return encoding === 'utf-16le' ? le : le.swap16();
}

/** Can `text` be written in `encoding` and read back unchanged? (Lone surrogates cannot.) */
export function encodable(text: string, encoding: Encoding): boolean {
  const round = decode(encode(text, encoding));
  return round.ok && round.text === text;
}

function detectEncoding(bytes: Uint8Array): Encoding {
  if (startsWith(bytes, UTF16LE_BOM)) return 'utf-16le';
  if (startsWith(bytes, UTF16BE_BOM)) return 'utf-16be';
  return 'utf-8';
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

function refuse(detail: string): Decoded {
  return { ok: false, reason: `${ENCODING_SKIP_PREFIX}: ${detail}` };
}

/** Where the first invalid byte sequence is, for a reason a user can act on. */
function invalidReason(bytes: Uint8Array, encoding: Encoding): string {
  if (encoding !== 'utf-8') {
    if (bytes.length % 2 !== 0) return `not valid ${encoding.toUpperCase()}: odd number of bytes`;
    return `not valid ${encoding.toUpperCase()}: unpaired surrogate`;
  }
  const at = firstInvalidUtf8(bytes);
  const line = lineOf(bytes, at);
  const shown = [...bytes.subarray(at, at + 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  return `not valid UTF-8 (byte ${at}, line ${line}: ${shown}); convert the file to UTF-8, it is left as it is`;
}

function lineOf(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** Offset of the first byte that starts an invalid UTF-8 sequence (RFC 3629: no overlongs, surrogates, > U+10FFFF). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    for (let k = 1; k < length; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    const second = bytes[i + 1];
    if (b === 0xe0 && second < 0xa0) return i; // overlong
    if (b === 0xed && second > 0x9f) return i; // surrogate
    if (b === 0xf0 && second < 0x90) return i; // overlong
    if (b === 0xf4 && second > 0x8f) return i; // above U+10FFFF
    i += length;
  }
  return Math.max(0, bytes.length - 1);
}
