// The default `continuation` configured from the environment, tested on fresh module instances: each
// import after vi.resetModules() is a separate "replica" or a fresh server start.
import { describe, it, expect, vi, afterEach } from 'vitest';
import { RUNTIME_ENV } from '../../src/vocabulary.js';
import { KEY_A, KEY_B, context } from './helpers.js';

type Runtime = typeof import('../../src/runtime/mrtr-continuation.js');
const VARIANTS = [
  ['AES-256-GCM', '../../src/runtime/mrtr-continuation.js'],
  ['SDK codec', '../../src/runtime/mrtr-continuation-sdk.js'],
] as const;

describe.each(VARIANTS)('%s variant', (_variant, modulePath) => {
  /** A fresh module instance. The environment is read on first use, so a replica is configured right away
   *  (as a server calling assertContinuationConfigured() at start-up) before the next one changes it. */
  async function freshInstance(env: Record<string, string | undefined>, configure = true): Promise<Runtime> {
    vi.resetModules();
    for (const name of ['NODE_ENV', 'MRTR_STATE_KEYS', 'MRTR_STATE_TTL_SECONDS', 'MRTR_STATE_AUDIENCE']) {
      vi.stubEnv(name, env[name]);
    }
    const runtime = (await import(/* @vite-ignore */ modulePath)) as Runtime;
    if (configure) runtime.assertContinuationConfigured();
    return runtime;
  }

  async function sealWith(runtime: Runtime): Promise<string> {
    const ctx = context();
    return runtime.continuation.seal(ctx, { step: 'confirm', bind: runtime.bindRequest(ctx, 'refund', { id: 1 }) });
  }

  async function opensWith(runtime: Runtime, state: string): Promise<boolean> {
    const ctx = context(state);
    return (await runtime.continuation.open(ctx, runtime.bindRequest(ctx, 'refund', { id: 1 }))) !== undefined;
  }

  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  describe('replicas', () => {
    it('two instances with the same MRTR_STATE_KEYS interoperate', async () => {
      const one = await freshInstance({ MRTR_STATE_KEYS: KEY_A });
      const two = await freshInstance({ MRTR_STATE_KEYS: KEY_A });
      expect(one).not.toBe(two);
      expect(await opensWith(two, await sealWith(one))).toBe(true);
      expect(await opensWith(one, await sealWith(two))).toBe(true);
    });

    it('two instances with different keys do not', async () => {
      const one = await freshInstance({ MRTR_STATE_KEYS: KEY_A });
      const two = await freshInstance({ MRTR_STATE_KEYS: KEY_B });
      expect(await opensWith(two, await sealWith(one))).toBe(false);
    });

    it('rotation across replicas: a replica already on "new,old" opens what an old replica sealed', async () => {
      const old = await freshInstance({ MRTR_STATE_KEYS: KEY_A });
      const rotated = await freshInstance({ MRTR_STATE_KEYS: ` ${KEY_B} , ${KEY_A} ,` }); // spaces and a trailing comma are fine
      const retired = await freshInstance({ MRTR_STATE_KEYS: KEY_B });
      const state = await sealWith(old);
      expect(await opensWith(rotated, state)).toBe(true);
      expect(await opensWith(retired, state)).toBe(false);
      expect(await opensWith(retired, await sealWith(rotated))).toBe(true);
    });

    it('two instances without keys (per-process random keys) do not interoperate', async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const one = await freshInstance({});
      const two = await freshInstance({});
      const state = await sealWith(one);
      expect(await opensWith(one, state)).toBe(true);
      expect(await opensWith(two, state)).toBe(false);
    });

    it('MRTR_STATE_AUDIENCE separates servers that share keys', async () => {
      const billing = await freshInstance({ MRTR_STATE_KEYS: KEY_A, MRTR_STATE_AUDIENCE: 'billing' });
      const shipping = await freshInstance({ MRTR_STATE_KEYS: KEY_A, MRTR_STATE_AUDIENCE: 'shipping' });
      const billing2 = await freshInstance({ MRTR_STATE_KEYS: KEY_A, MRTR_STATE_AUDIENCE: 'billing' });
      const state = await sealWith(billing);
      expect(await opensWith(shipping, state)).toBe(false);
      expect(await opensWith(billing2, state)).toBe(true);
    });
  });

  describe('production rule', () => {
    it('without MRTR_STATE_KEYS, importing the module in production throws an Error naming the variable', async () => {
      await expect(freshInstance({ NODE_ENV: 'production' })).rejects.toThrow(/MRTR_STATE_KEYS is not set/);
    });

    it('with an empty or whitespace-only MRTR_STATE_KEYS too', async () => {
      await expect(freshInstance({ NODE_ENV: 'production', MRTR_STATE_KEYS: ' , ' })).rejects.toThrow(/MRTR_STATE_KEYS is not set/);
    });

    it('with a short key, in production and elsewhere, naming the variable and not the secret', async () => {
      const short = `${KEY_A},too-short-secret`;
      await expect(freshInstance({ NODE_ENV: 'production', MRTR_STATE_KEYS: short })).rejects.toThrow(/MRTR_STATE_KEYS: secret 2 of 2 is 16 bytes/);
      const dev = await freshInstance({ MRTR_STATE_KEYS: short }, false);
      expect(() => dev.assertContinuationConfigured()).toThrow(/MRTR_STATE_KEYS/);
      expect(() => dev.assertContinuationConfigured()).not.toThrow(/too-short-secret/);
      await expect(sealWith(dev)).rejects.toThrow(/MRTR_STATE_KEYS/);
    });

    it('with a malformed MRTR_STATE_TTL_SECONDS, naming the variable', async () => {
      await expect(freshInstance({ NODE_ENV: 'production', MRTR_STATE_KEYS: KEY_A, MRTR_STATE_TTL_SECONDS: 'soon' })).rejects.toThrow(
        /MRTR_STATE_TTL_SECONDS/,
      );
      await expect(freshInstance({ NODE_ENV: 'production', MRTR_STATE_KEYS: KEY_A, MRTR_STATE_TTL_SECONDS: '0' })).rejects.toThrow(
        /MRTR_STATE_TTL_SECONDS/,
      );
    });

    it.each(['Production', 'PRODUCTION', ' production ', 'prod', 'Prod'])('NODE_ENV=%j is production too: no silent per-process key', async (nodeEnv) => {
      await expect(freshInstance({ NODE_ENV: nodeEnv })).rejects.toThrow(/MRTR_STATE_KEYS is not set/);
    });

    it.each(['development', 'staging', 'productionish', ''])('NODE_ENV=%j is not production: a per-process key and a warning', async (nodeEnv) => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const runtime = await freshInstance({ NODE_ENV: nodeEnv });
      expect(runtime.assertContinuationConfigured().ephemeralKey).toBe(true);
      expect(warn).toHaveBeenCalledTimes(1);
    });

    it.each(['0x10', '1e3', '300.5', '-5', '+300', '0', '86401', '9'.repeat(20), 'soon', '3 00'])(
      'MRTR_STATE_TTL_SECONDS=%j: a start-up error naming the variable and the range',
      async (ttl) => {
        const attempt = freshInstance({ NODE_ENV: 'production', MRTR_STATE_KEYS: KEY_A, MRTR_STATE_TTL_SECONDS: ttl });
        await expect(attempt).rejects.toThrow(/^MRTR_STATE_TTL_SECONDS must be a whole number of seconds from 1 to 86400/);
        const dev = await freshInstance({ MRTR_STATE_KEYS: KEY_A, MRTR_STATE_TTL_SECONDS: ttl }, false);
        expect(() => dev.assertContinuationConfigured()).toThrow(/MRTR_STATE_TTL_SECONDS/);
      },
    );

    it.each([
      ['1', 1],
      ['86400', 86_400],
      [' 120 ', 120],
      ['0300', 300],
    ])('MRTR_STATE_TTL_SECONDS=%j is %d seconds', async (ttl, seconds) => {
      const runtime = await freshInstance({ NODE_ENV: 'production', MRTR_STATE_KEYS: KEY_A, MRTR_STATE_TTL_SECONDS: ttl });
      expect(runtime.assertContinuationConfigured().ttlSeconds).toBe(seconds);
    });

    it('with a valid key, production starts and reports its configuration without the secret', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const runtime = await freshInstance({ NODE_ENV: 'production', MRTR_STATE_KEYS: `${KEY_A},${KEY_B}`, MRTR_STATE_TTL_SECONDS: '120' });
      const status = runtime.assertContinuationConfigured();
      expect(status).toEqual({ keyCount: 2, ephemeralKey: false, ttlSeconds: 120, audience: 'mcp-server' });
      expect(JSON.stringify(status)).not.toContain(KEY_A.slice(0, 10));
      expect(warn).not.toHaveBeenCalled();
    });

    it('open never throws on a configuration error; seal reports it', async () => {
      const runtime = await freshInstance({ MRTR_STATE_KEYS: 'short' }, false);
      const ctx = context('v1.AAAAAAAAAAA.AAAA');
      await expect(runtime.continuation.open(ctx, runtime.bindRequest(ctx, 'refund', {}))).resolves.toBeUndefined();
    });
  });

  describe('development fallback', () => {
    it('without keys outside production: a per-process key and ONE warning on stderr naming the variable', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const runtime = await freshInstance({ NODE_ENV: 'development' }, false);
      expect(warn).not.toHaveBeenCalled(); // lazily, on first use
      const state = await sealWith(runtime);
      expect(await opensWith(runtime, state)).toBe(true);
      await sealWith(runtime);
      expect(runtime.assertContinuationConfigured()).toMatchObject({ keyCount: 1, ephemeralKey: true, ttlSeconds: 300 });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toMatch(/MRTR_STATE_KEYS is not set.*restart.*replica/);
    });

    it('reads the environment on first use, not on import (dotenv may load after the handlers)', async () => {
      const runtime = await freshInstance({}, false);
      vi.stubEnv('MRTR_STATE_KEYS', KEY_A);
      const keyed = await freshInstance({ MRTR_STATE_KEYS: KEY_A });
      vi.stubEnv('MRTR_STATE_KEYS', KEY_A);
      expect(runtime.assertContinuationConfigured().ephemeralKey).toBe(false);
      expect(await opensWith(runtime, await sealWith(keyed))).toBe(true);
    });

    it('the default TTL comes from MRTR_STATE_TTL_SECONDS', async () => {
      const runtime = await freshInstance({ MRTR_STATE_KEYS: KEY_A, MRTR_STATE_TTL_SECONDS: '45' });
      expect(runtime.assertContinuationConfigured().ttlSeconds).toBe(45);
    });
  });

  describe('vocabulary', () => {
    it('the runtime reads the environment variables the shared vocabulary names', async () => {
      const runtime = await freshInstance({}, false);
      expect(runtime.ENV.keys).toBe(RUNTIME_ENV.keys);
      expect(runtime.ENV.ttl).toBe(RUNTIME_ENV.ttl);
      expect(runtime.ENV.audience).toBe(RUNTIME_ENV.audience);
      expect(runtime.ENV.roots).toBe(RUNTIME_ENV.roots);
      expect(runtime.ENV.claimsRedisUrl).toBe(RUNTIME_ENV.claimsRedisUrl);
    });
  });
});
