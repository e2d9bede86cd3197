/**
 * Porting is idempotent on realistic servers: the transform leaves its own output unchanged, and leaves
 * the hand-written ports (already in the MRTR shape) unchanged too.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyPortSource } from '../../transforms/index.js';
import { FIXTURES } from './fixtures.js';
import { fixturePath, portedFixture } from './harness.js';

const OPTIONS = { codec: 'aead', roots: 'config', continuationImport: './mrtr-continuation.js' } as const;

describe('porting the e2e fixtures twice', () => {
  for (const { name } of FIXTURES) {
    it(`${name}: the port of the port is the port, and the hand port is left alone`, async () => {
      // the real transform's port (made once per run for every e2e test file: harness portedFixture)
      const ported = await portedFixture(name);
      expect(ported).not.toBe(readFileSync(fixturePath(name, 'input'), 'utf8'));
      expect(applyPortSource({ source: ported, path: `${name}.ported.ts`, options: OPTIONS })).toBe(ported);
      const expected = readFileSync(fixturePath(name, 'expected'), 'utf8');
      expect(applyPortSource({ source: expected, path: fixturePath(name, 'expected'), options: OPTIONS })).toBe(expected);
    });
  }
});
