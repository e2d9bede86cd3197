import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

  it('types the v2 SDK from its own copy in a tree that does not have it installed yet (an SDK v1 tree being migrated)', () => {
    const dir = tempDir(); // outside this repository: no node_modules up the tree
    const file = join(dir, 'server.ts');
    writeFileSync(
      file,
      "import { McpServer, type CreateMessageResult } from '@modelcontextprotocol/server';\n" +
        "export function f() {\n  const server = new McpServer({ name: 'x', version: '1' });\n  return server;\n}\n" +
        "export function g(r: CreateMessageResult) {\n  const kind = r.content;\n  return kind;\n}\n",
    );
    const project = new Project(dir, [file]);
    const index = project.get(file)!;
    const checker = project.typeChecker()!;
    expect(checker.typeToString(checker.getTypeAtLocation(identifierNamed(index.sf, 'server')))).toBe('McpServer');
    const kind = checker.getTypeAtLocation(identifierNamed(index.sf, 'kind'));
    expect(kind.flags & ts.TypeFlags.Any).toBe(0);
    expect(kind.isUnion() && kind.types.length).toBeGreaterThan(1); // text | image | audio | …
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

describe('the program\'s declarations and the plan\'s questions', () => {
  it('a tree with @types/node and no lib or types in its config: the target\'s lib without the DOM, and only @types/node', () => {
    const opts = checkerOptions(fixture, [join(fixture, 'server.ts')]);
    expect(opts.lib).toEqual(['lib.es2022.d.ts']);
    expect(opts.types).toEqual(['node']);
    const program = new Project(fixture, [join(fixture, 'server.ts')]);
    program.get(join(fixture, 'server.ts'));
    const names = program.typeProgram()!.getSourceFiles().map((sf) => sf.fileName);
    expect(names.some((n) => n.endsWith('/lib.dom.d.ts'))).toBe(false);
    expect(names.some((n) => n.includes('/@types/node/'))).toBe(true);
    expect(names.some((n) => n.includes('/@types/chai/'))).toBe(false);
  });

  it('keeps the lib and types a config names, and the DOM where no @types/node declares fetch', () => {
    const named = tempDir();
    writeFileSync(join(named, 'tsconfig.json'), JSON.stringify({ compilerOptions: { lib: ['ES2020', 'DOM'], types: [] } }));
    const opts = checkerOptions(named, [join(named, 'a.ts')]);
    expect(opts.lib).toEqual(['lib.es2020.d.ts', 'lib.dom.d.ts']);
    expect(opts.types).toEqual([]);
    // a config outside any node_modules: nothing declares fetch but the DOM
    const bare = tempDir();
    writeFileSync(join(bare, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true } }));
    const plain = checkerOptions(bare, [join(bare, 'a.ts')]);
    expect(plain.lib).toBeUndefined();
    expect(plain.types).toBeUndefined();
  });

  it('a config whose extends is missing: the defaults fill in what it would have set', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../missing/tsconfig.base.json', compilerOptions: { strict: false } }));
    const opts = checkerOptions(dir, [join(dir, 'a.ts')]);
    expect(opts.strict).toBe(false);
    expect(opts.moduleResolution).toBe(ts.ModuleResolutionKind.Bundler);
    expect(opts.target).toBe(ts.ScriptTarget.ES2022);
  });

  it('a file with a type error elsewhere still gets types for its questions: the connection is not carryable', () => {
    // inside the repository, so the SDK and zod resolve from its node_modules
    mkdirSync(join(root, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(root, '.tmp', 'mrtr-types-'));
    temps.push(dir);
    const file = join(dir, 'orders.ts');
    writeFileSync(file, TYPE_ERROR_ELSEWHERE);
    const { report } = analyze({ cwd: dir, files: [file] });
    expect(report.sites.map((s) => `${s.line} ${s.portability}(${s.reasons.join('+')})`)).toEqual(['22 manual(not-carryable)']);
  });
});

/**
 * A connection (a class instance the sealed state cannot carry) opened before the ask and used after it,
 * in a file that does not type-check elsewhere (a string given to a number): that error says nothing
 * about the connection's type, so the checker still decides.
 */
const TYPE_ERROR_ELSEWHERE = `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

class Connection {
  async query(sql: string): Promise<number> {
    return sql.length;
  }
}

class Pool {
  async connect(): Promise<Connection> {
    return new Connection();
  }
}

const retries: number = 'three';
const pool = new Pool();
const server = new McpServer({ name: 'orders', version: '1.0.0' });

server.registerTool('cancel_order', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }, ctx) => {
  const conn = await pool.connect();
  const answer = await ctx.mcpReq.elicitInput({ message: \`Cancel \${orderId}?\`, requestedSchema: { type: 'object', properties: {} } });
  if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'Kept' }] };
  const rows = await conn.query(\`UPDATE orders SET state = 'cancelled' WHERE id = '\${orderId}' -- \${retries}\`);
  return { content: [{ type: 'text', text: \`Cancelled (\${rows})\` }] };
});

export { server };
`;

describe('module resolution across the programs of one process', () => {
  it('a user file that appears between two analyses is found by the second (relative imports are not kept)', () => {
    const dir = tempDir();
    const a = join(dir, 'a.ts');
    writeFileSync(a, `import { n } from './b.js';\nexport const m = n;\n`);
    const first = new Project(dir, [a]);
    first.get(a);
    expect(first.typeProgram()!.getSourceFile(join(dir, 'b.ts'))).toBeUndefined();
    writeFileSync(join(dir, 'b.ts'), 'export const n = 1;\n');
    const second = new Project(dir, [a]);
    second.get(a);
    expect(second.typeProgram()!.getSourceFile(join(dir, 'b.ts'))).toBeDefined();
  });

  it('a package resolves to the same declarations in every program', () => {
    const file = join(fixture, 'server.ts');
    const names = [0, 1].map(() => {
      const project = new Project(fixture, [file]);
      project.get(file);
      return project.typeProgram()!.getSourceFiles().map((sf) => sf.fileName).filter((n) => n.includes('/@modelcontextprotocol/server/')).sort();
    });
    expect(names[0].length).toBeGreaterThan(0);
    expect(names[1]).toEqual(names[0]);
  });
});
