import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { helperImportSpecifier, helperPathFor, helperState, moduleSystemOf, PackageLayout, suffixOfRelativeImports } from '../../src/port/helper-file.js';
import { removeDir } from './helpers.js';

const NAME = 'mrtr-continuation.ts';
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mrtr-port-helper-'));
});
afterEach(() => removeDir(root));

function file(rel: string, text = ''): string {
  const p = join(root, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return p;
}

describe('helperPathFor', () => {
  it('uses the directory the ported files share', () => {
    const a = file('pkg/src/tools/a.ts');
    const b = file('pkg/src/tools/b.ts');
    file('pkg/package.json', '{}');
    expect(helperPathFor(join(root, 'pkg'), [a, b], NAME)).toBe(join(root, 'pkg/src/tools', NAME));
  });

  it("falls back to the package's src/ when the files are spread out, else to the package root", () => {
    const a = file('pkg/src/a.ts');
    const b = file('pkg/src/tools/b.ts');
    expect(helperPathFor(join(root, 'pkg'), [a, b], NAME)).toBe(join(root, 'pkg/src', NAME));
    const c = file('flat/lib/c.ts');
    const d = file('flat/bin/d.ts');
    expect(helperPathFor(join(root, 'flat'), [c, d], NAME)).toBe(join(root, 'flat', NAME));
  });

  it('reuses a directory that holds any helper of the set', () => {
    file('pkg/src/mrtr-continuation.cjs', 'helper');
    const a = file('pkg/src/tools/a.cjs');
    expect(helperPathFor(join(root, 'pkg'), [a], ['mrtr-flow.cjs', 'mrtr-continuation.cjs'])).toBe(join(root, 'pkg/src/mrtr-flow.cjs'));
  });

  it('reuses a helper that already exists in src/ even when a later port shares another directory', () => {
    file(`pkg/src/${NAME}`, 'helper');
    const a = file('pkg/src/tools/a.ts');
    expect(helperPathFor(join(root, 'pkg'), [a], NAME)).toBe(join(root, 'pkg/src', NAME));
  });
});

describe('helperImportSpecifier', () => {
  it('is relative, posix, without the .ts extension, with the suffix asked for', () => {
    expect(helperImportSpecifier(join(root, 'src/a.ts'), join(root, 'src', NAME), '.js')).toBe('./mrtr-continuation.js');
    expect(helperImportSpecifier(join(root, 'src/tools/a.ts'), join(root, 'src', NAME), '')).toBe('../mrtr-continuation');
    expect(helperImportSpecifier(join(root, 'a.ts'), join(root, 'src', NAME), '.ts')).toBe('./src/mrtr-continuation.ts');
  });

  it('keeps the real extension of a JavaScript helper, and names a TypeScript helper .js from a JavaScript file', () => {
    expect(helperImportSpecifier(join(root, 'src/a.cjs'), join(root, 'src/mrtr-flow.cjs'), '')).toBe('./mrtr-flow.cjs');
    expect(helperImportSpecifier(join(root, 'src/tools/a.js'), join(root, 'src/mrtr-flow.js'), '')).toBe('../mrtr-flow.js');
    expect(helperImportSpecifier(join(root, 'a.mjs'), join(root, 'lib/mrtr-flow.mjs'), '.ts')).toBe('./lib/mrtr-flow.mjs');
    expect(helperImportSpecifier(join(root, 'src/legacy.js'), join(root, 'src/mrtr-flow.ts'), '')).toBe('./mrtr-flow.js');
  });
});

describe('import suffix', () => {
  it("follows the file's own relative imports", () => {
    expect(suffixOfRelativeImports(`import { a } from './a.js';\nimport x from 'zod';`)).toBe('.js');
    expect(suffixOfRelativeImports(`import { a } from "../lib/a";`)).toBe('');
    expect(suffixOfRelativeImports(`import type { A } from './a.ts';`)).toBe('.ts');
    expect(suffixOfRelativeImports(`const a = require('./a.cjs');`)).toBe('.js');
    expect(suffixOfRelativeImports(`import x from 'zod';`)).toBeUndefined();
  });

  it('uses .js under a NodeNext/Node16 tsconfig (also through extends), none otherwise', () => {
    file('node/package.json', '{}');
    file('node/tsconfig.base.json', '{ /* base */ "compilerOptions": { "moduleResolution": "Node16" } }');
    file('node/tsconfig.json', '{ "extends": "./tsconfig.base.json", "compilerOptions": { "strict": true } }');
    file('bundler/package.json', '{}');
    file('bundler/tsconfig.json', '{ "compilerOptions": { "module": "ESNext", "moduleResolution": "Bundler" } }');
    file('none/package.json', '{}');
    const layout = new PackageLayout(root);
    expect(layout.importSuffix(`import x from 'zod';`, join(root, 'node'))).toBe('.js');
    expect(layout.importSuffix(`import x from 'zod';`, join(root, 'bundler'))).toBe('');
    expect(layout.importSuffix(`import x from 'zod';`, join(root, 'none'))).toBe('');
    // the file's own style wins when it carries a suffix
    expect(layout.importSuffix(`import a from './a.js';`, join(root, 'bundler'))).toBe('.js');
  });

  it('a "type": "module" package without a Node-resolving tsconfig: .js for a file with no relative import, its own style otherwise', () => {
    file('esm/package.json', '{ "type": "module" }');
    const layout = new PackageLayout(root);
    expect(layout.importSuffix(`import x from 'zod';`, join(root, 'esm'))).toBe('.js');
    expect(layout.importSuffix(`import { a } from './a';`, join(root, 'esm'))).toBe('');
  });

  it('finds the nearest package.json above a file, or the fallback root', () => {
    file('mono/package.json', '{}');
    file('mono/packages/x/package.json', '{}');
    const f = file('mono/packages/x/src/deep/f.ts');
    const g = file('loose/g.ts');
    const layout = new PackageLayout(join(root, 'loose'));
    expect(layout.packageRootOf(f)).toBe(join(root, 'mono/packages/x'));
    expect(layout.packageRootOf(join(root, 'mono/src/h.ts'))).toBe(join(root, 'mono'));
    // no package.json anywhere above a file in the temp dir
    expect(layout.packageRootOf(g)).toBe(join(root, 'loose'));
  });

  it('never looks above the working directory for a package, but reads a tsconfig from there', () => {
    file('outer/package.json', '{}');
    file('outer/tsconfig.json', '{ "compilerOptions": { "module": "NodeNext" } }');
    const f = file('outer/src/tools/f.ts');
    const layout = new PackageLayout(join(root, 'outer/src'));
    expect(layout.packageRootOf(f)).toBe(join(root, 'outer/src'));
    expect(layout.importSuffix(`import x from 'zod';`, layout.packageRootOf(f))).toBe('.js');
  });
});

describe('helperState', () => {
  it('tells missing, identical and differing files apart', () => {
    expect(helperState(join(root, NAME), 'T')).toBe('missing');
    file(NAME, 'T');
    expect(helperState(join(root, NAME), 'T')).toBe('identical');
    expect(helperState(join(root, NAME), 'T2')).toBe('differs');
  });
});

describe('moduleSystemOf', () => {
  it('TypeScript and .mjs import; .cjs requires', () => {
    expect(moduleSystemOf('a.ts', `const x = require('y');`, 'commonjs')).toBe('esm');
    expect(moduleSystemOf('a.cts', '', 'commonjs')).toBe('esm');
    expect(moduleSystemOf('a.tsx', '', 'commonjs')).toBe('esm');
    expect(moduleSystemOf('a.mjs', '', 'commonjs')).toBe('esm');
    expect(moduleSystemOf('a.cjs', `import x from 'y';`, 'module')).toBe('cjs');
  });

  it('a .js file by its own syntax, else by the package type', () => {
    expect(moduleSystemOf('a.js', `import { McpServer } from '@modelcontextprotocol/server';`, 'commonjs')).toBe('esm');
    expect(moduleSystemOf('a.js', `export default function register(server) {}`, 'commonjs')).toBe('esm');
    expect(moduleSystemOf('a.jsx', `export const A = () => <b/>;`, 'commonjs')).toBe('esm');
    expect(moduleSystemOf('a.js', `const { McpServer } = require('@modelcontextprotocol/server');`, 'module')).toBe('cjs');
    expect(moduleSystemOf('a.js', `module.exports = function register(server) {};`, 'module')).toBe('cjs');
    expect(moduleSystemOf('a.js', `exports.register = (server) => {};`, 'module')).toBe('cjs');
    // the words alone, in a comment or a string, are not syntax
    expect(moduleSystemOf('a.js', `// import things later\nconst s = "export default";\nmodule.exports = s;`, 'module')).toBe('cjs');
    expect(moduleSystemOf('a.js', `globalThis.x = 1;`, 'module')).toBe('esm');
    expect(moduleSystemOf('a.js', `globalThis.x = 1;`, 'commonjs')).toBe('cjs');
  });

  it('reads the package type, CommonJS when there is none or it is not JSON', () => {
    file('esm/package.json', '{ "type": "module" }');
    file('cjs/package.json', '{ "type": "commonjs" }');
    file('bad/package.json', '{ "type": ');
    const layout = new PackageLayout(root);
    expect(layout.packageType(join(root, 'esm'))).toBe('module');
    expect(layout.packageType(join(root, 'cjs'))).toBe('commonjs');
    expect(layout.packageType(join(root, 'bad'))).toBe('commonjs');
    expect(layout.packageType(join(root, 'none'))).toBe('commonjs');
  });
});
