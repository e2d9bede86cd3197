// The SDK-codec variant (`port --codec sdk`): the same contract over createRequestStateCodec (HMAC).
import { describe, it, expect } from 'vitest';
import * as sdkRuntime from '../../src/runtime/mrtr-continuation-sdk.js';
import * as aeadRuntime from '../../src/runtime/mrtr-continuation.js';
import { continuationContract } from './contract.js';
import { KEY_A, context } from './helpers.js';

continuationContract('SDK codec', sdkRuntime);

describe('SDK-codec wire format', () => {
  it("is the SDK codec's own, readable by the client (signed, not encrypted)", async () => {
    const c = sdkRuntime.createContinuation({ keys: [KEY_A] });
    const ctx = context();
    const state = await c.seal(ctx, { step: 'confirm', bind: sdkRuntime.bindRequest(ctx, 'refund', { id: 'arg-secret' }), note: 'visible' });
    const [, body] = state.split('.');
    const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p: { p: { note: string } } };
    expect(decoded.p.p.note).toBe('visible');
    expect(state).not.toContain(Buffer.from('arg-secret').toString('base64url')); // arguments: a digest only
    expect(Buffer.from(body, 'base64url').toString('utf8')).not.toContain('arg-secret');
  });

  it('rejects a non-canonical spelling of a valid state (the codec itself would accept it)', async () => {
    const c = sdkRuntime.createContinuation({ keys: [KEY_A] });
    const ctx = context();
    const state = await c.seal(ctx, { step: 'confirm', bind: sdkRuntime.bindRequest(ctx, 'refund', {}) });
    const last = state.at(-1)!;
    // The MAC's last character carries 2 spare bits: flipping them decodes to the same bytes under atob.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1];
    const open = async (s: string) => c.open(context(s), sdkRuntime.bindRequest(ctx, 'refund', {}));
    expect(await open(state)).toBeDefined();
    expect(await open(state.slice(0, -1) + sibling)).toBeUndefined();
  });

  it('the two variants do not open each other’s states', async () => {
    const sdk = sdkRuntime.createContinuation({ keys: [KEY_A] });
    const aead = aeadRuntime.createContinuation({ keys: [KEY_A] });
    const ctx = context();
    const bind = sdkRuntime.bindRequest(ctx, 'refund', {});
    expect(await aead.open(context(await sdk.seal(ctx, { step: 's', bind })), bind)).toBeUndefined();
    expect(await sdk.open(context(await aead.seal(ctx, { step: 's', bind })), bind)).toBeUndefined();
  });
});
