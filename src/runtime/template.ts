/**
 * The continuation helper `port` writes into a user's project, read from the tested source file so the
 * copy a user gets is byte-identical to the one this repository tests.
 */
import { readFileSync } from 'node:fs';

/** The name the helper gets next to the user's sources (transforms import `./mrtr-continuation.js`). */
export const CONTINUATION_FILE_NAME = 'mrtr-continuation.ts';

/** Which sealing the helper uses: our AES-GCM seal, or the SDK's HMAC codec (`port --codec sdk`). */
export type ContinuationCodec = 'aead' | 'sdk';

const SOURCES: Record<ContinuationCodec, string> = {
  aead: 'mrtr-continuation.ts',
  sdk: 'mrtr-continuation-sdk.ts',
};

/**
 * The helper's source text. Works from `src/runtime` (tsx, vitest) and from the built
 * `dist/src/runtime` (the package ships `src/runtime` beside `dist`).
 */
export function continuationTemplate(codec: ContinuationCodec = 'aead'): string {
  const file = SOURCES[codec];
  if (file === undefined) throw new RangeError(`continuationTemplate: unknown codec ${JSON.stringify(codec)} (expected aead or sdk)`);
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
