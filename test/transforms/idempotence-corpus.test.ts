/**
 * Over every server source the repository keeps as fixtures (the analyzer's site corpus, the e2e
 * servers, the port projects), the port never fails (other than refusing unparseable input with a clear
 * error) and running it on its own output changes nothing.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { applyPortSource, defaultContinuationImport, type PortOptions } from '../../transforms/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const files = fg.sync(['fixtures/**/*.{ts,tsx,mts,js,mjs}', '!fixtures/transforms/**', '!**/node_modules/**', '!**/*.d.ts'], { cwd: root, absolute: true }).sort();

describe('port over the repository fixture corpus', () => {
  for (const roots of ['config', 'ask'] as const) {
    it(`is idempotent and never throws (--roots ${roots})`, () => {
      expect(files.length).toBeGreaterThan(20);
      const failures: string[] = [];
      let changed = 0;
      for (const path of files) {
        const source = readFileSync(path, 'utf8');
        const options: PortOptions = { codec: 'aead', roots, continuationImport: defaultContinuationImport(source) };
        try {
          const once = applyPortSource({ source, path, options });
          if (once !== source) changed++;
          if (applyPortSource({ source: once, path, options }) !== once) failures.push(`${relative(root, path)}: second run changed the output`);
        } catch (error) {
          // a deliberately broken fixture is refused with a clear parse error: that is the contract
          if (!/: cannot parse \(/.test((error as Error).message)) failures.push(`${relative(root, path)}: ${(error as Error).message}`);
        }
      }
      expect(failures).toEqual([]);
      expect(changed).toBeGreaterThan(10);
    });
  }
});
