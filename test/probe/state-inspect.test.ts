/** Decoding a requestState from the outside, and the tampered copies the `tamper` check sends. */
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeState, tamperedStates } from '../../src/probe/state-inspect.js';

const payload = { step: 'confirm', args: { path: '/srv/a.csv' }, ticket: 'T-1a2b3c', exp: 1790000000, final: false };
const b64url = (text: string | Buffer) => Buffer.from(text).toString('base64url');

function aead(text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', randomBytes(32), iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return `v1.kid0.${b64url(Buffer.concat([iv, body, cipher.getAuthTag()]))}`;
}

function signed(text: string): string {
  const body = b64url(text);
  return `v1.${body}.${b64url(createHmac('sha256', 'k').update(body).digest())}`;
}

describe('decodeState', () => {
  it('AES-GCM: nothing readable, one opaque segment', () => {
    expect(decodeState(aead(JSON.stringify(payload)))).toEqual({ readable: [], opaqueSegments: [2] });
  });

  it('signed JSON (the SDK codec shape): the payload is readable, the MAC is opaque', () => {
    const decoded = decodeState(signed(JSON.stringify(payload)));
    expect(decoded.readable).toEqual([{ segment: 1, encoding: 'base64url', text: JSON.stringify(payload), json: payload }]);
    expect(decoded.opaqueSegments).toEqual([2]);
  });

  it('plain JSON, base64, base64url and gzip inside base64: readable, nothing opaque', () => {
    const text = JSON.stringify(payload);
    for (const state of [text, Buffer.from(text).toString('base64'), b64url(text), b64url(gzipSync(text))]) {
      const decoded = decodeState(state);
      expect(decoded.readable.map((p) => p.json), state).toEqual([payload]);
      expect(decoded.opaqueSegments).toEqual([]);
    }
  });

  it('a short random id is neither readable nor counted as a MAC', () => {
    expect(decodeState(b64url(randomBytes(8)))).toEqual({ readable: [], opaqueSegments: [] });
  });
});

describe('tamperedStates', () => {
  it('changes a significant bit at the first, middle and last position after the version prefix', () => {
    for (let length = 1; length <= 40; length++) {
      const state = `v1.${b64url(randomBytes(length))}`;
      const variants = tamperedStates(state);
      expect(variants.length).toBeGreaterThanOrEqual(Math.min(3, state.length - 3));
      for (const variant of variants) {
        expect(variant.state).not.toBe(state);
        expect(variant.state.startsWith('v1.')).toBe(true);
        // the bytes differ too: a lenient base64 decoder must not read the same state
        expect(Buffer.from(variant.state.slice(3), 'base64url').equals(Buffer.from(state.slice(3), 'base64url')), variant.label).toBe(false);
      }
    }
  });

  it('for a readable JSON part, also changes each value in turn and encodes the part back the same way', () => {
    const state = signed(JSON.stringify(payload));
    const content = tamperedStates(state).filter((v) => v.label.includes('readable state'));
    expect(content.map((v) => v.label)).toEqual([
      '$.step changed in the readable state',
      '$.args.path changed in the readable state',
      '$.ticket changed in the readable state',
      '$.exp changed in the readable state',
      '$.final changed in the readable state',
    ]);
    for (const variant of content) {
      const [version, body, mac] = variant.state.split('.');
      expect([version, mac]).toEqual(state.split('.').filter((_, i) => i !== 1));
      const changed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof payload;
      expect(changed).not.toEqual(payload);
      expect(Object.keys(changed)).toEqual(Object.keys(payload));
    }
  });

  it('a plain JSON state is tampered as JSON', () => {
    const state = JSON.stringify(payload);
    const changed = (field: string) => JSON.parse(tamperedStates(state).find((v) => v.label.startsWith(`$.${field} `))!.state) as unknown;
    expect(changed('ticket')).toEqual({ ...payload, ticket: 'T-1a3b3c' });
    expect(changed('exp')).toEqual({ ...payload, exp: 1790000001 });
    expect(changed('final')).toEqual({ ...payload, final: true });
  });
});
