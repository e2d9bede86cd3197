import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import ts from '../../src/typescript.cjs';
import { sharingCompilerHost, typeCheckProject } from './shared-source-files.js';

const dir = mkdtempSync(join(tmpdir(), 'mrtr-shared-sf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], types: [], strict: true, noEmit: true };
const errorsOf = (program: ts.Program): string[] => ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));

describe('sharingCompilerHost', () => {
  it('gives two programs the same lib file, and each its own diagnostics', () => {
    const file = join(dir, 'a.ts');
    writeFileSync(file, 'export const n: number = 1;\n');
    const first = ts.createProgram([file], options, sharingCompilerHost(options));
    expect(errorsOf(first)).toEqual([]);
    writeFileSync(file, "export const n: number = 'one';\n");
    const second = ts.createProgram([file], options, sharingCompilerHost(options));
    // the rewritten file is parsed anew (its hash changed) and its error is found
    expect(errorsOf(second)).toEqual(["Type 'string' is not assignable to type 'number'."]);
    const lib = (program: ts.Program) => program.getSourceFiles().find((f) => f.fileName.endsWith('lib.es2022.d.ts'));
    expect(lib(first)).toBeDefined();
    expect(lib(second)).toBe(lib(first));
  });

  it('parses a file again for options that change its parse (another target)', () => {
    const file = join(dir, 'b.ts');
    writeFileSync(file, 'export const b = 1;\n');
    const es2022 = ts.createProgram([file], options, sharingCompilerHost(options));
    const es5Options = { ...options, target: ts.ScriptTarget.ES5 };
    const es5 = ts.createProgram([file], es5Options, sharingCompilerHost(es5Options));
    expect(es5.getSourceFile(file)).not.toBe(es2022.getSourceFile(file));
    expect(es5.getSourceFile(file)?.languageVersion).toBe(ts.ScriptTarget.ES5);
  });

  it('typeCheckProject reports what tsc -p reports: config errors and diagnostics, one line each', () => {
    const project = join(dir, 'project');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, lib: ['ES2022'], types: [], noEmit: true }, include: ['src/**/*.ts'] }));
    writeFileSync(join(project, 'src/ok.ts'), 'export const ok: string = "yes";\n');
    expect(typeCheckProject(project)).toEqual([]);
    writeFileSync(join(project, 'src/bad.ts'), 'export const n: number = "one";\n');
    expect(typeCheckProject(project)).toEqual(["src/bad.ts:1 TS2322: Type 'string' is not assignable to type 'number'."]);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, lib: ['ES2022'], types: [], noEmit: true, target: 'ES1999' }, include: ['src/**/*.ts'] }));
    // (the config error names the tsconfig line it is on)
    expect(typeCheckProject(project)).toEqual(expect.arrayContaining([expect.stringMatching(/^tsconfig.json:1 TS6046: Argument for '--target' option must be/)]));
  });
});
