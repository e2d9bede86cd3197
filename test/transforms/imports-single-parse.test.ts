/**
 * The pipeline finds the imports a ported file needs from the transforms' own parse; before, it
 * parsed their output a second time (`addMissingImports`). Over every transform fixture input and
 * every server source under fixtures/sites and fixtures/projects, with both `--roots` modes, each
 * transform set on its own and all together, the two ways give the same bytes. The first-parse way
 * must also really be taken: a file it is unsure of is parsed again, and those must stay rare.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { defaultContinuationImport, type PortOptions, type SiteInstruction } from '../../transforms/index.js';
import { ALL_TRANSFORMS, type EnabledTransforms } from '../../transforms/lib/context.js';
import { applyPortSourceWith } from '../../transforms/lib/pipeline.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const files = fg
  .sync(['fixtures/transforms/**/*.input.*', 'fixtures/sites/**/*.{ts,tsx,mts,cts,js,mjs,cjs}', 'fixtures/projects/**/*.{ts,tsx,mts,cts,js,mjs,cjs}', '!fixtures/transforms/resumable-handlers/**', '!**/node_modules/**', '!**/*.d.ts'], {
    cwd: root,
    absolute: true,
  })
  .sort();

const NONE: EnabledTransforms = { retireRoots: false, capabilityBranches: false, twoPass: false, urlElicitation: false, imports: true };
const TRANSFORM_SETS: Record<string, EnabledTransforms> = {
  all: ALL_TRANSFORMS,
  'imports only': NONE,
  'retire-roots': { ...NONE, retireRoots: true },
  'two-pass': { ...NONE, twoPass: true },
  'url-elicitation': { ...NONE, urlElicitation: true },
  'capability-branches': { ...NONE, capabilityBranches: true },
};

function sitesFor(input: string): SiteInstruction[] | undefined {
  const sitesFile = input.replace(/\.input\.(tsx?|m?js)$/, '.sites.json');
  return input.includes('.input.') && existsSync(sitesFile) ? (JSON.parse(readFileSync(sitesFile, 'utf8')) as SiteInstruction[]) : undefined;
}

/** The output, or the error message: a file both ways refuse must be refused the same way. */
function run(f: () => string): string {
  try {
    return f();
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

describe('imports from the first parse equal imports from a second parse', () => {
  it('covers the fixture corpus', () => expect(files.length).toBeGreaterThan(50));

  for (const roots of ['config', 'ask'] as const) {
    it(`gives byte-identical output (--roots ${roots})`, () => {
      const differences: string[] = [];
      const reparsed: string[] = [];
      let firstParse = 0;
      for (const path of files) {
        const source = readFileSync(path, 'utf8');
        const options: PortOptions = { codec: 'aead', roots, continuationImport: defaultContinuationImport(source) };
        const sites = sitesFor(path);
        for (const [name, enabled] of Object.entries(TRANSFORM_SETS)) {
          const input = { source, path, options, sites };
          let fellBack = false;
          const single = run(() => applyPortSourceWith(input, enabled, { onReparse: (_, reason) => { fellBack = true; reparsed.push(`${relative(root, path)} [${name}]: ${reason}`); } }));
          const twice = run(() => applyPortSourceWith(input, enabled, { mode: 'reparse' }));
          if (single !== twice) differences.push(`${relative(root, path)} [${name}]`);
          if (!fellBack && single !== source && !single.startsWith('error: ')) firstParse++;
        }
      }
      expect(differences).toEqual([]);
      // the new way is really used: most changed files never parse twice
      expect(firstParse).toBeGreaterThan(100);
      expect(reparsed.length, reparsed.join('\n')).toBeLessThan(firstParse / 10);
    });
  }
});
