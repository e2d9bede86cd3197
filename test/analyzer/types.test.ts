import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from '../../src/typescript.cjs';
import { afterEach, describe, expect, it } from 'vitest';
import { analyze, findSites } from '../../src/analyzer/index.js';
import { Project } from '../../src/analyzer/project.js';
import { checkerOptions } from '../../src/analyzer/types.js';

const root = resolve(import.meta.dirname, '../..');
const fixture = join(root, 'fixtures/analyzer/type-queries');

function identifierNamed(sf: ts.SourceFile, name: string): ts.Identifier {
  let found: ts.Identifier | undefined;
  const visit = (n: ts.Node): void => {
    if (!found && ts.isIdentifier(n) && n.text === name && ts.isReturnStatement(n.parent)) found = n;
    ts.forEachChild(n, visit);
  };
  visit(sf);
  if (!found) throw new Error(`no returned identifier ${name}`);
  return found;
}

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-types-'));
  temps.push(dir);
  return dir;
}

describe('Project.typeChecker', () => {
  it('answers on the nodes the analyzer parsed (its own trees are the program\'s)', () => {
    const file = join(fixture, 'server.ts');
    const project = new Project(fixture, [file]);
    const index = project.get(file)!;
    expect(project.programBuilt()).toBe(false);
    const checker = project.typeChecker(index)!;
    expect(checker).toBeDefined();
    expect(project.typeProgram()!.getSourceFile(file)).toBe(index.sf);
    const held = identifierNamed(index.sf, 'held');
    expect(checker.typeToString(checker.getTypeAtLocation(held))).toBe('McpServer');
    // the symbol of the type comes from the SDK's declarations, read from node_modules
    const decl = checker.getTypeAtLocation(held).getSymbol()?.declarations?.[0];
    expect(decl?.getSourceFile().fileName).toMatch(/@modelcontextprotocol\/server\//);
    expect([...project.typeCheckedFiles]).toEqual([file]);
  });

  it('builds one program per analysis, and none when nothing asks', () => {
    const file = join(fixture, 'server.ts');
    const project = new Project(fixture, [file]);
    project.get(file);
    expect(project.programBuilt()).toBe(false);
    expect(project.typeProgram()).toBe(project.typeProgram());
    expect(project.programBuilt()).toBe(true);
  });

  it('works on a file with no tsconfig.json anywhere up to the working directory', () => {
    const dir = tempDir();
    const file = join(dir, 'plain.ts');
    writeFileSync(file, 'const n: number = 2;\nexport function f() {\n  const text = n.toFixed(1);\n  return text;\n}\n');
    const project = new Project(dir, [file]);
    const index = project.get(file)!;
    const checker = project.typeChecker()!;
    expect(checker.typeToString(checker.getTypeAtLocation(identifierNamed(index.sf, 'text')))).toBe('string');
  });

  it('takes the nearest tsconfig.json\'s options, emit options dropped; defaults without one', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2019', strict: false, outDir: 'dist', composite: true } }));
    const opts = checkerOptions(dir, [join(dir, 'src/a.ts')]);
    expect(opts.target).toBe(ts.ScriptTarget.ES2019);
    expect(opts.strict).toBe(false);
    expect(opts.noEmit).toBe(true);
    expect(opts.outDir).toBeUndefined();
    expect(opts.composite).toBeUndefined();
    const other = tempDir();
    const bare = checkerOptions(other, [join(other, 'x.js')]);
    expect(bare.moduleResolution).toBe(ts.ModuleResolutionKind.Bundler);
    expect(bare.allowJs).toBe(true);
    expect(bare.strict).toBe(true);
  });

  it('is not built to find the sites when no site needs types (the port\'s plan may build it later)', () => {
    const { found, project } = findSites({ cwd: root, files: [join(root, 'fixtures/sites/v2-tool-auto.ts')] });
    expect(found.length).toBeGreaterThan(0);
    expect(project.typeCheckedFiles.size).toBe(0);
  });

  it('asks only for TypeScript files: a JavaScript receiver has no declared type, and a program over bundles is costly', () => {
    const dir = tempDir();
    const ask = `await current().createMessage({ messages: [], maxTokens: 1 });\n`;
    writeFileSync(join(dir, 'typed.ts'), `import '@modelcontextprotocol/server';\ndeclare class Server { createMessage(p: unknown): Promise<unknown> }\ndeclare function current(): Server;\nexport {};\n${ask}`);
    writeFileSync(join(dir, 'bundle.mjs'), `import { current } from './session.mjs';\nimport '@modelcontextprotocol/server';\n${ask}`);
    const typed = analyze({ cwd: dir, files: [join(dir, 'typed.ts')] }).report;
    expect(typed.sites.map((s) => `${s.file}:${s.line} ${s.form}`)).toEqual(['typed.ts:5 createMessage']);
    expect(typed.files.typeChecked).toBe(1);
    const bundle = analyze({ cwd: dir, files: [join(dir, 'bundle.mjs')] }).report;
    expect(bundle.sites).toEqual([]);
    expect(bundle.files.typeChecked ?? 0).toBe(0);
  });
});
