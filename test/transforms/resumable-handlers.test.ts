/**
 * The port engine's fixtures (`fixtures/transforms/resumable-handlers/<case>.input.*` → `.output.*`):
 * each input, analyzed alone and ported, gives its output byte for byte; the output ported again is
 * unchanged (a ported file has no legacy site left); TypeScript outputs type-check (strict) against
 * @modelcontextprotocol/server 2.4.0 and the real runtime files (`src/runtime/mrtr-flow.ts`, the
 * continuation); JavaScript outputs stay plain JavaScript; every case opens with a comment saying why.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import ts from '../../src/typescript.cjs';
import { describe, expect, it } from 'vitest';
import type { PortOptions } from '../../transforms/index.js';
import { applyPortFile } from '../../transforms/lib/port-file.js';
import { javaScriptSyntaxErrors, typeCheck, unusedNamesInJavaScript } from './typecheck.js';

/** One TypeScript program over many files: minutes, not seconds, on a loaded 2-core machine. */
const TYPECHECK_TIMEOUT_MS = 300_000;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = join(root, 'fixtures/transforms/resumable-handlers');
const INPUT = /\.input\.(tsx?|m?js|cjs)$/;
const inputs = fg.sync('*.input.{ts,tsx,js,mjs,cjs}', { cwd: fixtures, absolute: true }).sort();
const outputOf = (input: string): string => input.replace(INPUT, '.output.$1');
const typed = (file: string): boolean => /\.tsx?$/.test(file);
const runtime = {
  aead: join(root, 'src/runtime/mrtr-continuation.ts'),
  sdk: join(root, 'src/runtime/mrtr-continuation-sdk.ts'),
  flow: join(root, 'src/runtime/mrtr-flow.ts'),
};

function optionsFor(input: string): PortOptions {
  const file = input.replace(INPUT, '.options.json');
  const given = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<PortOptions>) : {};
  return { codec: 'aead', roots: 'config', continuationImport: './mrtr-continuation.js', ...given };
}

describe('port engine fixtures (resumable-handlers)', () => {
  it('has a pair per case, each opening with a comment that says why it is ported or marked', () => {
    expect(inputs.length).toBeGreaterThan(20);
    for (const input of inputs) {
      expect(existsSync(outputOf(input)), relative(root, outputOf(input))).toBe(true);
      const first = readFileSync(input, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0];
      expect(first, relative(root, input)).toMatch(/^\/\/ (Ported|Marked)\b/);
    }
  });

  for (const input of inputs) {
    const name = relative(fixtures, input).replace(INPUT, '');
    it(`${name}: input → output, then output → output unchanged`, () => {
      const source = readFileSync(input, 'utf8');
      const expected = readFileSync(outputOf(input), 'utf8');
      const options = optionsFor(input);
      expect(applyPortFile({ source, path: input, options })).toBe(expected);
      expect(applyPortFile({ source: expected, path: outputOf(input), options })).toBe(expected);
      const kind = /\.tsx$/.test(input) ? ts.ScriptKind.TSX : typed(input) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
      const sf = ts.createSourceFile(input, expected, ts.ScriptTarget.Latest, true, kind);
      expect((sf as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics).toEqual([]);
    });
  }

  it('every TypeScript output type-checks (strict, noUnusedLocals, noUnusedParameters) against @modelcontextprotocol/server 2.4.0 and the runtime', () => {
    expect(typeCheck(inputs.filter(typed).map(outputOf), runtime, { unused: true })).toEqual([]);
  }, TYPECHECK_TIMEOUT_MS);

  it('every TypeScript input type-checks (strict, noUnusedLocals, noUnusedParameters) too: the outputs add no error of their own', () => {
    expect(typeCheck(inputs.filter(typed), runtime, { unused: true })).toEqual([]);
  }, TYPECHECK_TIMEOUT_MS);

  it('every JavaScript output is plain JavaScript, and a CommonJS output never imports', () => {
    const outputs = inputs.filter((f) => !typed(f)).map(outputOf);
    expect(outputs.length).toBeGreaterThanOrEqual(2);
    expect(javaScriptSyntaxErrors(outputs)).toEqual([]);
    for (const out of outputs.filter((f) => f.endsWith('.cjs'))) expect(readFileSync(out, 'utf8')).not.toMatch(/^import /m);
  });

  it('no JavaScript input or output declares a name it never reads (checkJs, noUnusedLocals, noUnusedParameters): the port leaves none unread', () => {
    const javaScript = inputs.filter((f) => !typed(f));
    expect(unusedNamesInJavaScript([...javaScript, ...javaScript.map(outputOf)])).toEqual([]);
  }, TYPECHECK_TIMEOUT_MS);
});
