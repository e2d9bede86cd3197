/**
 * The continuation helper `port` writes into a user's project, read from the tested source file so the
 * copy a user gets is byte-identical to the one this repository tests.
 */
import { readFileSync } from 'node:fs';

/** The name the helper gets next to the user's sources (transforms import `./mrtr-continuation.js`). */
export const CONTINUATION_FILE_NAME = 'mrtr-continuation.ts';

/** Which protection the helper uses: AES-256-GCM (default), or the SDK's HMAC codec (`port --codec sdk`). */
export type ContinuationCodec = 'aead' | 'sdk';

/** The tested source of each variant, in src/runtime; users get it under the same name (transforms import `-sdk` for the SDK codec). */
export const CONTINUATION_SOURCES: Readonly<Record<ContinuationCodec, string>> = {
  aead: CONTINUATION_FILE_NAME,
  sdk: 'mrtr-continuation-sdk.ts',
};

/**
 * The helper's source text for a codec. Works from `src/runtime` (tsx, vitest) and from the built
 * `dist/src/runtime` (the package ships `src/runtime` beside `dist`).
 */
export function continuationTemplate(codec: ContinuationCodec = 'aead'): string {
  const file = Object.hasOwn(CONTINUATION_SOURCES, codec) ? CONTINUATION_SOURCES[codec] : undefined;
  if (file === undefined) throw new RangeError(`continuationTemplate: unknown codec ${JSON.stringify(codec)} (expected "aead" or "sdk")`);
  const candidates = [new URL(`./${file}`, import.meta.url), new URL(`../../../src/runtime/${file}`, import.meta.url)];
  for (const candidate of candidates) {
    try {
      return readFileSync(candidate, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new Error(`continuationTemplate: ${file} not found next to ${new URL('.', import.meta.url).pathname} nor in the package's src/runtime`);
}
