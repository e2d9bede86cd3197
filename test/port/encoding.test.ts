/** decode/encode: every accepted file round-trips to its exact bytes; everything else is refused with a reason. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode, encode, type Encoding } from '../../src/port/encoding.js';

const utf16 = (text: string, encoding: 'utf-16le' | 'utf-16be') => {
  const le = Buffer.from(text, 'utf16le');
  return encoding === 'utf-16le' ? le : le.swap16();
};

describe('decode', () => {
  it('reads UTF-8 with and without a byte-order mark, keeping the mark in the text', () => {
    expect(decode(Buffer.from('const é = "ü";\n'))).toEqual({ ok: true, text: 'const é = "ü";\n', encoding: 'utf-8' });
    expect(decode(Buffer.from('\uFEFFx\n'))).toEqual({ ok: true, text: '\uFEFFx\n', encoding: 'utf-8' });
  });

  it('reads UTF-16 LE and BE announced by a byte-order mark', () => {
    expect(decode(Buffer.from([0xff, 0xfe, 0x78, 0x00, 0x0a, 0x00]))).toEqual({ ok: true, text: '\uFEFFx\n', encoding: 'utf-16le' });
    expect(decode(Buffer.from([0xfe, 0xff, 0x00, 0x78, 0x00, 0x0a]))).toEqual({ ok: true, text: '\uFEFFx\n', encoding: 'utf-16be' });
  });

  it('refuses Latin-1 bytes in a UTF-8 file, naming the byte and line', () => {
    const latin1 = Buffer.concat([Buffer.from('// ok\n// caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    const r = decode(latin1);
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/^encoding: not valid UTF-8 \(byte 12, line 2: e9 0a\)/) });
  });

  it('refuses overlong forms, encoded surrogates and truncated sequences', () => {
    for (const bad of [[0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x61, 0xe2, 0x82]]) {
      expect(decode(Buffer.from(bad)).ok, bad.join(' ')).toBe(false);
    }
  });

  it('refuses UTF-16 without a byte-order mark (NUL bytes), odd lengths and unpaired surrogates', () => {
    expect(decode(Buffer.from('x\n', 'utf16le'))).toEqual({ ok: false, reason: expect.stringMatching(/^encoding: NUL bytes/) });
    expect(decode(Buffer.from([0xff, 0xfe, 0x78]))).toEqual({ ok: false, reason: 'encoding: not valid UTF-16LE: odd number of bytes' });
    expect(decode(Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x78, 0x00]))).toEqual({ ok: false, reason: 'encoding: not valid UTF-16LE: unpaired surrogate' });
  });
});

describe('encode ∘ decode', () => {
  const text = fc.string({ unit: 'grapheme', maxLength: 40 });

  it('gives back the exact bytes of any text in each encoding (BOM or not)', () => {
    fc.assert(
      fc.property(text, fc.boolean(), fc.constantFrom<Encoding>('utf-8', 'utf-16le', 'utf-16be'), (t, bom, encoding) => {
        // UTF-16 needs its mark to be recognised; NUL is refused in UTF-8
        const body = (encoding === 'utf-8' ? t.replaceAll('\0', '') : t);
        const full = bom || encoding !== 'utf-8' ? '\uFEFF' + body : body;
        const bytes = encoding === 'utf-8' ? Buffer.from(full, 'utf8') : utf16(full, encoding);
        const decoded = decode(bytes);
        expect(decoded).toEqual({ ok: true, text: full, encoding });
        expect(encode(full, encoding).equals(bytes)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never accepts bytes it cannot give back unchanged', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (bytes) => {
        const decoded = decode(bytes);
        if (decoded.ok) expect(encode(decoded.text, decoded.encoding).equals(Buffer.from(bytes))).toBe(true);
        else expect(decoded.reason).toMatch(/^encoding: /);
      }),
      { numRuns: 2000 },
    );
  });
});
