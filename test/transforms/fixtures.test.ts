import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { applyPortSource, defaultContinuationImport, type PortOptions } from '../../transforms/index.js';
import { parseProgram, parserFor } from '../../transforms/lib/ast.js';
import { typeCheck } from './typecheck.js';

/** One TypeScript program over many files: minutes, not seconds, on a loaded 2-core machine. */
const TYPECHECK_TIMEOUT_MS = 300_000;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = join(root, 'fixtures/transforms');
// the port engine's cases have a test of their own (resumable-handlers.test.ts)
const inputs = fg.sync(['*/*.input.{ts,tsx,js,mjs}', '!resumable-handlers/**'], { cwd: fixtures, absolute: true }).sort();
const outputOf = (input: string): string => input.replace(/\.input\.(tsx?|m?js)$/, '.output.$1');
/** TypeScript cases are type-checked (the JavaScript cases are the port engine's, in resumable-handlers.test.ts). */
const typed = (file: string): boolean => /\.tsx?$/.test(file);

/** The real runtime helper files the port's output imports (copied into users' repos by the runner). */
const runtime = {
  aead: join(root, 'src/runtime/mrtr-continuation.ts'),
  sdk: join(root, 'src/runtime/mrtr-continuation-sdk.ts'),
  flow: join(root, 'src/runtime/mrtr-flow.ts'),
};

function optionsFor(input: string, source: string): PortOptions {
  const optionsFile = input.replace(/\.input\.(tsx?|m?js)$/, '.options.json');
  const given = existsSync(optionsFile) ? (JSON.parse(readFileSync(optionsFile, 'utf8')) as Partial<PortOptions>) : {};
  return { codec: 'aead', roots: 'config', continuationImport: defaultContinuationImport(source), ...given };
}

function port(path: string, source: string, options: PortOptions): string {
  return applyPortSource({ source, path, options });
}

describe('transform fixtures', () => {
  it('has fixture pairs', () => {
    expect(inputs.length).toBeGreaterThan(0);
    for (const input of inputs) expect(existsSync(outputOf(input)), relative(root, outputOf(input))).toBe(true);
  });

  for (const input of inputs) {
    const name = relative(fixtures, input).replace(/\.input\.(tsx?|m?js)$/, '');
    it(`${name}: input → output, then output → output unchanged`, () => {
      const source = readFileSync(input, 'utf8');
      const expected = readFileSync(outputOf(input), 'utf8');
      const options = optionsFor(input, source);
      const actual = port(input, source, options);
      expect(actual).toBe(expected);
      // idempotence: the port of its own output changes nothing
      expect(port(outputOf(input), expected, options)).toBe(expected);
      expect(() => parseProgram(expected.replace(/^\uFEFF/, ''), parserFor(input))).not.toThrow();
    });
  }

  it('every output type-checks (strict, noUnusedLocals, noUnusedParameters) against @modelcontextprotocol/server 2.4.0 and the runtime helper', () => {
    const outputs = inputs.filter(typed).map(outputOf).filter(existsSync);
    expect(typeCheck(outputs, runtime, { unused: true })).toEqual([]);
  }, TYPECHECK_TIMEOUT_MS);

  it('every input type-checks (strict, noUnusedLocals, noUnusedParameters) against @modelcontextprotocol/server 2.4.0', () => {
    expect(typeCheck(inputs.filter(typed), runtime, { unused: true })).toEqual([]);
  }, TYPECHECK_TIMEOUT_MS);
});
