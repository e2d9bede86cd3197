import { describe, it, expect } from 'vitest';
import * as runtime from '../../src/runtime/mrtr-continuation.js';
import { continuationContract } from './contract.js';
import { KEY_A, KEY_C, context } from './helpers.js';

const { bindRequest, createContinuation } = runtime;
const ARGS = { orderId: 'o-17', amount: 42 };

continuationContract('AES-256-GCM', runtime);

async function sealed(c: runtime.Continuation, extra: Record<string, unknown> = {}): Promise<string> {
  const ctx = context();
  return c.seal(ctx, { step: 'confirm', bind: bindRequest(ctx, 'refund', ARGS), ...extra });
}

async function opens(c: runtime.Continuation, state: unknown): Promise<boolean> {
  const ctx = context(state);
  return (await c.open(ctx, bindRequest(ctx, 'refund', ARGS))) !== undefined;
}

describe('AES-256-GCM wire format', () => {
  it('is v1.<11-character key id>.<base64url body>', async () => {
    expect(await sealed(createContinuation({ keys: [KEY_A] }))).toMatch(/^v1\.[A-Za-z0-9_-]{11}\.[A-Za-z0-9_-]+$/);
  });

  it('does not reveal the payload: the ciphertext holds neither step nor answers', async () => {
    const state = await sealed(createContinuation({ keys: [KEY_A] }), { note: 'PLAINTEXT-MARKER' });
    const body = Buffer.from(state.split('.')[2], 'base64url').toString('latin1');
    expect(body).not.toContain('PLAINTEXT-MARKER');
    expect(body).not.toContain('confirm');
  });

  it('seals differently each time (random nonce) and both open', async () => {
    const c = createContinuation({ keys: [KEY_A] });
    const [s1, s2] = [await sealed(c), await sealed(c)];
    expect(s1).not.toBe(s2);
    expect(await opens(c, s1)).toBe(true);
    expect(await opens(c, s2)).toBe(true);
  });

  it('names the sealing key by a public id, different per secret', async () => {
    const a = (await sealed(createContinuation({ keys: [KEY_A] }))).split('.')[1];
    const c = (await sealed(createContinuation({ keys: [KEY_C, KEY_A] }))).split('.')[1];
    expect(a).not.toBe(c);
    expect(a).toBe((await sealed(createContinuation({ keys: [KEY_A] }))).split('.')[1]); // stable across instances
  });

  it('a different key never opens, even when the key id is rewritten', async () => {
    const a = createContinuation({ keys: [KEY_A] });
    const c = createContinuation({ keys: [KEY_C] });
    const state = await sealed(a);
    expect(await opens(c, state)).toBe(false);
    const cId = (await sealed(c)).split('.')[1];
    const [v, , body] = state.split('.');
    expect(await opens(c, `${v}.${cId}.${body}`)).toBe(false);
  });
});
