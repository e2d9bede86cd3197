import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import ts from '../../src/typescript.cjs';
import { isStableDeclarationPath } from '../../src/analyzer/shared-source-files.js';
import { buildProgram, defaultCheckerOptions } from '../../src/analyzer/types.js';
import { buildProject, sharingCompilerHost, typeCheckProject } from './shared-source-files.js';

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

  it('buildProject writes what tsc -p writes, and reports the same diagnostics (emitting anyway, as tsc does)', () => {
    const project = join(dir, 'built');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, lib: ['ES2022'], types: [], module: 'ES2022', target: 'ES2022', outDir: 'dist', rootDir: 'src', declaration: true }, include: ['src/**/*.ts'] }));
    writeFileSync(join(project, 'src/ok.ts'), 'export const ok: string = "yes";\n');
    expect(buildProject(project)).toEqual([]);
    expect(readFileSync(join(project, 'dist/ok.js'), 'utf8')).toBe('export const ok = "yes";\n');
    expect(readFileSync(join(project, 'dist/ok.d.ts'), 'utf8')).toBe('export declare const ok: string;\n');
    writeFileSync(join(project, 'src/bad.ts'), 'export const n: number = "one";\n');
    expect(buildProject(project)).toEqual(["src/bad.ts:1 TS2322: Type 'string' is not assignable to type 'number'."]);
    expect(readFileSync(join(project, 'dist/bad.js'), 'utf8')).toBe('export const n = "one";\n');
  });
});

describe("the analyzer's programs (src/analyzer/types.ts buildProgram)", () => {
  // inside the repository, so that the SDK resolves from its node_modules
  const repo = fileURLToPath(new URL('../..', import.meta.url));
  mkdirSync(join(repo, '.tmp'), { recursive: true });
  const project = mkdtempSync(join(repo, '.tmp', 'shared-sf-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('share lib and node_modules declarations across analyses; the user\'s own files are read anew', () => {
    const entry = join(project, 'server.ts');
    const helper = join(project, 'helper.ts');
    writeFileSync(entry, "import { McpServer } from '@modelcontextprotocol/server';\nimport { name } from './helper.js';\nexport const server = new McpServer({ name, version: '1' });\n");
    writeFileSync(helper, "export const name = 'one';\n");
    const analysis = () => {
      const sf = ts.createSourceFile(entry, ts.sys.readFile(entry)!, ts.ScriptTarget.Latest, true);
      return buildProgram({ cwd: project, roots: [sf], tree: (abs) => (abs === entry ? sf : undefined) });
    };
    const first = analysis();
    const second = analysis();
    const shared = (p: ts.Program) => p.getSourceFiles().filter((f) => isStableDeclarationPath(f.fileName));
    expect(shared(first).map((f) => f.fileName)).toEqual(expect.arrayContaining([expect.stringMatching(/\/lib\.es5\.d\.ts$/), expect.stringMatching(/\/node_modules\/@modelcontextprotocol\/server\//)]));
    expect(shared(second)).toEqual(shared(first));
    for (const [i, f] of shared(second).entries()) expect(f, f.fileName).toBe(shared(first)[i]);
    // a file of the user's outside the analyzed set is not kept: it may change between analyses
    expect(second.getSourceFile(helper)).not.toBe(first.getSourceFile(helper));
    writeFileSync(helper, 'export const name = 2;\n');
    expect(analysis().getSourceFile(helper)?.text).toBe('export const name = 2;\n');
    expect(ts.getPreEmitDiagnostics(second).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '))).toEqual([]);
  });

  it("parse declarations without a TypeScript file's JSDoc, and still read a JavaScript package's JSDoc types", () => {
    // a package of plain JavaScript whose only types are its JSDoc
    const pkg = join(project, 'node_modules', 'jsdoc-typed');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'jsdoc-typed', main: 'index.js' }));
    writeFileSync(join(pkg, 'index.js'), '/** @param {string} s @returns {number} */\nexports.size = function (s) { return s.length; };\n');
    const entry = join(project, 'uses-js.ts');
    writeFileSync(entry, "import { size } from 'jsdoc-typed';\nexport const n = size('abc');\n");
    const sf = ts.createSourceFile(entry, ts.sys.readFile(entry)!, ts.ScriptTarget.Latest, true);
    const options = { ...defaultCheckerOptions(), allowJs: true, maxNodeModuleJsDepth: 1 };
    const program = buildProgram({ cwd: project, roots: [sf], tree: (abs) => (abs === entry ? sf : undefined), options });
    const checker = program.getTypeChecker();
    const n = (sf.statements[1] as ts.VariableStatement).declarationList.declarations[0];
    expect(checker.typeToString(checker.getTypeAtLocation(n.name))).toBe('number');
    const es5 = program.getSourceFiles().find((f) => f.fileName.endsWith('/lib.es5.d.ts'))!;
    // lib.es5.d.ts documents nearly every declaration: none of it was parsed
    const documented = (f: ts.SourceFile) => f.statements.filter((st) => ((st as { jsDoc?: unknown[] }).jsDoc ?? []).length > 0).length;
    expect(es5.statements.length).toBeGreaterThan(100);
    expect(documented(es5)).toBe(0);
    // the user's own tree is the analyzer's, parsed with its JSDoc
    const own = ts.createSourceFile(entry, '/** the answer */\nexport const a = 42;\n', ts.ScriptTarget.Latest, true);
    expect(documented(own)).toBe(1);
  });

  it('keeps only lib files and node_modules', () => {
    const lib = ts.getDefaultLibFilePath({}).replace(/[^/]*$/, 'lib.es2022.d.ts');
    expect(isStableDeclarationPath(lib)).toBe(true);
    expect(isStableDeclarationPath('/srv/app/node_modules/zod/index.d.cts')).toBe(true);
    expect(isStableDeclarationPath('/srv/app/src/node_modules.ts')).toBe(false);
    expect(isStableDeclarationPath('/srv/app/src/server.ts')).toBe(false);
  });
});
