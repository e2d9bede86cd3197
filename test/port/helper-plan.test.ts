// Where a package's helpers go, in which language and module system, and how each ported file imports them.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PackageLayout } from '../../src/port/helper-file.js';
import { PackageHelpers, type PortedFileText } from '../../src/port/helper-plan.js';
import { removeDir } from './helpers.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mrtr-port-helper-plan-'));
});
afterEach(() => removeDir(root));

function pkg(json: object, files: Record<string, string>, tsconfig?: object): { dir: string; files: PortedFileText[] } {
  const dir = join(root, 'pkg');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify(json));
  if (tsconfig) writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  const out: PortedFileText[] = [];
  for (const [rel, text] of Object.entries(files)) {
    const abs = join(dir, rel);
    mkdirSync(join(abs, '..'), { recursive: true });
    writeFileSync(abs, text);
    out.push({ abs, text });
  }
  return { dir, files: out };
}

const ESM = `import { McpServer } from '@modelcontextprotocol/server';\n`;
const CJS = `const { McpServer } = require('@modelcontextprotocol/server');\n`;

function plan(json: object, files: Record<string, string>, codec: 'aead' | 'sdk' = 'aead', tsconfig?: object) {
  const p = pkg(json, files, tsconfig);
  const helpers = new PackageHelpers(new PackageLayout(root), p.dir, codec, p.files);
  return { helpers, files: p.files, dir: p.dir };
}

describe('PackageHelpers', () => {
  it('a TypeScript package gets .ts helpers, imported in the file style (NodeNext: .js)', () => {
    const { helpers, files, dir } = plan({ type: 'module' }, { 'src/a.ts': ESM, 'src/tools/b.ts': ESM }, 'aead', { compilerOptions: { module: 'NodeNext' } });
    expect(helpers.flavor).toEqual({ language: 'ts', extension: '.ts', importSuffix: '.js' });
    expect(helpers.pathOf('flow')).toBe(join(dir, 'src/mrtr-flow.ts'));
    expect(helpers.importFor(files[1])).toEqual({ flowImport: '../mrtr-flow.js', continuationImport: '../mrtr-continuation.js', module: 'esm' });
  });

  it('suffixless TypeScript gets suffixless imports, between the helpers too', () => {
    const { helpers, files } = plan({}, { 'src/a.ts': `${ESM}import { x } from './x';\n` });
    expect(helpers.flavor.importSuffix).toBe('');
    expect(helpers.importFor(files[0]).flowImport).toBe('./mrtr-flow');
  });

  it('ES modules in a "type": "module" package get .js helpers with the extension written out', () => {
    const { helpers, files } = plan({ type: 'module' }, { 'src/server.js': `${ESM}import { a } from './a';\n` });
    expect(helpers.flavor).toEqual({ language: 'esm', extension: '.js' });
    expect(helpers.importFor(files[0])).toEqual({ flowImport: './mrtr-flow.js', continuationImport: './mrtr-continuation.js', module: 'esm' });
  });

  it('ES modules in a CommonJS package (.mjs) get .mjs helpers', () => {
    const { helpers, files } = plan({}, { 'server.mjs': ESM });
    expect(helpers.flavor).toEqual({ language: 'esm', extension: '.mjs' });
    expect(helpers.importFor(files[0]).flowImport).toBe('./mrtr-flow.mjs');
  });

  it('CommonJS .js files in a CommonJS package get .js CommonJS helpers, required', () => {
    const { helpers, files } = plan({ name: 'x' }, { 'lib/server.js': CJS });
    expect(helpers.flavor).toEqual({ language: 'cjs', extension: '.js' });
    expect(helpers.importFor(files[0])).toEqual({ flowImport: './mrtr-flow.js', continuationImport: './mrtr-continuation.js', module: 'cjs' });
  });

  it('.cjs files, or CommonJS in a "type": "module" package, get .cjs helpers', () => {
    expect(plan({}, { 'server.cjs': CJS }).helpers.flavor).toEqual({ language: 'cjs', extension: '.cjs' });
    const { helpers, files } = plan({ type: 'module' }, { 'server.js': CJS });
    expect(helpers.flavor).toEqual({ language: 'cjs', extension: '.cjs' });
    expect(helpers.importFor(files[0])).toMatchObject({ flowImport: './mrtr-flow.cjs', module: 'cjs' });
  });

  it('ES modules and CommonJS in one package share one .cjs helper', () => {
    const { helpers, files } = plan({ type: 'module' }, { 'src/a.js': ESM, 'src/b.cjs': CJS });
    expect(helpers.flavor).toEqual({ language: 'cjs', extension: '.cjs' });
    expect(files.map((f) => helpers.importFor(f))).toEqual([
      { flowImport: './mrtr-flow.cjs', continuationImport: './mrtr-continuation.cjs', module: 'esm' },
      { flowImport: './mrtr-flow.cjs', continuationImport: './mrtr-continuation.cjs', module: 'cjs' },
    ]);
  });

  it('TypeScript wins over JavaScript files in the same package (tsc emits the helper for both)', () => {
    const { helpers, files } = plan({}, { 'src/a.ts': ESM, 'src/b.js': CJS });
    expect(helpers.flavor.language).toBe('ts');
    expect(helpers.importFor(files[1])).toEqual({ flowImport: './mrtr-flow.js', continuationImport: './mrtr-continuation.js', module: 'cjs' });
  });

  it('under --codec sdk the continuation helper is the -sdk file; the old-engine import still names the default', () => {
    const { helpers, files, dir } = plan({ type: 'module' }, { 'a.js': ESM }, 'sdk');
    expect(helpers.pathOf('continuation')).toBe(join(dir, 'mrtr-continuation-sdk.js'));
    expect(helpers.importFor(files[0]).continuationImport).toBe('./mrtr-continuation.js');
  });

  it('reuses the directory of helpers an earlier run wrote', () => {
    const p = pkg({ type: 'module' }, { 'src/tools/late.js': ESM, 'src/mrtr-flow.js': '// earlier run\n' });
    const helpers = new PackageHelpers(new PackageLayout(root), p.dir, 'aead', [p.files[0]]);
    expect(helpers.dir).toBe(join(p.dir, 'src'));
    expect(helpers.importFor(p.files[0]).flowImport).toBe('../mrtr-flow.js');
  });

  it('places by the files with portable sites when given', () => {
    const p = pkg({}, { 'src/tools/a.ts': ESM, 'scripts/b.ts': ESM });
    const helpers = new PackageHelpers(new PackageLayout(root), p.dir, 'aead', p.files, [p.files[0]]);
    expect(helpers.dir).toBe(join(p.dir, 'src/tools'));
  });
});
