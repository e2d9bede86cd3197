/**
 * The helper stage through runPort: a changed file that imports the flow gets the flow, and the flow's
 * own imports (the codec's continuation, the claim store of `--claims`), in the package's language, each
 * once; the Redis claim store adds `redis` to package.json; a helper that cannot be written keeps every
 * file that needs it, through another helper too. The transform is a stand-in that imports the flow the
 * way the new engine does (`PortOptions.flowImport` / `module`), so this runs before that engine is on.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TransformInput } from '../../src/port/dependencies.js';
import { runPort, type RunPortOptions } from '../../src/port/index.js';
import { HELPER_PACKAGE_VERSIONS, HELPER_TYPE_PACKAGE_VERSIONS } from '../../src/port/manifest.js';
import { renderHelper } from '../../src/runtime/template.js';
import { fakeDependencies, fakeTransform } from './fakes.js';
import { removeDir, repoRoot } from './helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mrtr-port-helper-stage-'));
});
afterEach(() => removeDir(dir));

function write(rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}
const read = (rel: string) => readFileSync(join(dir, rel), 'utf8');

/** The fake port, importing `resumable` from the flow in the file's module system (as the new engine's import writer does). */
function flowTransform(input: TransformInput): string {
  const text = fakeTransform({ ...input, options: { ...input.options, continuationImport: '@unused' } }).replace(/^import \{ askPorted \} from '@unused';\r?\n/m, '');
  const { flowImport, module } = input.options;
  const line = module === 'cjs' ? `const { resumable } = require('${flowImport}');` : `import { resumable } from '${flowImport}';`;
  return `${line}\n${text}`;
}

const port = (extra: Partial<RunPortOptions> = {}) =>
  runPort({ cwd: dir, paths: ['.'], dependencies: fakeDependencies({ transform: flowTransform, helperTemplate: renderHelper }), ...extra });

const ASK = `  const answer = await ctx.mcpReq.elicitInput({ message: 'ok?' });\n`;

describe('the helpers a ported file needs, through the flow', () => {
  it('TypeScript: the flow, the continuation and the in-memory claim store, each from its tested source, each once', async () => {
    write('package.json', JSON.stringify({ name: 'p', type: 'module', dependencies: { '@modelcontextprotocol/server': '^2.4.0' }, devDependencies: { '@types/node': '^22.0.0' } }, null, 2) + '\n');
    write('tsconfig.json', '{ "compilerOptions": { "module": "NodeNext" } }');
    write('src/a.ts', `export async function a(ctx: any) {\n${ASK}  return answer;\n}\n`);
    write('src/b.ts', `export async function b(ctx: any) {\n${ASK}  return answer;\n}\n`);
    const result = await port();
    expect(result.helpers).toEqual([
      { file: 'src/mrtr-claims.ts', status: 'written', importedBy: ['src/mrtr-flow.ts'] },
      { file: 'src/mrtr-continuation.ts', status: 'written', importedBy: ['src/mrtr-claims.ts', 'src/mrtr-flow.ts'] },
      { file: 'src/mrtr-flow.ts', status: 'written', importedBy: ['src/a.ts', 'src/b.ts'] },
    ]);
    for (const [file, source] of [['mrtr-flow.ts', 'mrtr-flow.ts'], ['mrtr-continuation.ts', 'mrtr-continuation.ts'], ['mrtr-claims.ts', 'mrtr-claims.ts']]) {
      expect(read(`src/${file}`)).toBe(readFileSync(join(repoRoot, 'src/runtime', source), 'utf8'));
    }
    expect(read('src/a.ts').split('\n')[0]).toBe(`import { resumable } from './mrtr-flow.js';`);
    // nothing for package.json to gain: the server range already has the MRTR API
    expect(result.manifests).toEqual([]);
    expect(result.nextSteps.find((s) => s.id === 'claims')?.text).toMatch(/--claims redis/);

    const again = await port();
    expect(again.summary.changed).toBe(0);
  });

  it('TypeScript helpers in a package without @types/node: it goes to devDependencies (the flow imports node:async_hooks); JavaScript helpers need none', async () => {
    write('package.json', JSON.stringify({ name: 'p', type: 'module', dependencies: { '@modelcontextprotocol/server': '^2.4.0' } }, null, 2) + '\n');
    write('src/a.ts', `export async function a(ctx: any) {\n${ASK}  return answer;\n}\n`);
    const result = await port();
    expect(JSON.parse(read('package.json'))).toEqual({
      name: 'p',
      type: 'module',
      dependencies: { '@modelcontextprotocol/server': '^2.4.0' },
      devDependencies: { '@types/node': HELPER_TYPE_PACKAGE_VERSIONS['@types/node'] },
    });
    expect(result.manifests).toMatchObject([{ file: 'package.json', status: 'written', added: { '@types/node': '20.19.43' }, removed: [] }]);
    expect(result.manifests[0].notes.join(' ')).toMatch(/@types\/node added to devDependencies/);
    // declared now: a second run leaves package.json alone
    expect((await port()).manifests).toEqual([]);

    write('js/package.json', JSON.stringify({ name: 'j', type: 'module', dependencies: { '@modelcontextprotocol/server': '^2.4.0' } }, null, 2) + '\n');
    write('js/a.js', `export async function a(ctx) {\n${ASK}  return answer;\n}\n`);
    const js = await port({ paths: ['js'] });
    expect(js.helpers.map((h) => h.file)).toEqual(['js/mrtr-claims.js', 'js/mrtr-continuation.js', 'js/mrtr-flow.js']);
    expect(JSON.parse(read('js/package.json')).devDependencies).toBeUndefined();
  });

  it('the @types/node version added is the one this repository type-checks the helpers with', () => {
    const own = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(HELPER_TYPE_PACKAGE_VERSIONS['@types/node']).toBe(own.devDependencies['@types/node']);
  });

  it('--claims redis --codec sdk: the Redis store, pointed at the -sdk continuation, and redis in package.json', async () => {
    write('package.json', JSON.stringify({ name: 'p', type: 'module', dependencies: { '@modelcontextprotocol/server': '^2.4.0' } }, null, 2) + '\n');
    write('src/a.ts', `export async function a(ctx: any) {\n${ASK}  return answer;\n}\n`);
    const result = await port({ claims: 'redis', codec: 'sdk' });
    expect(result.options).toMatchObject({ codec: 'sdk', claims: 'redis' });
    expect(result.helpers.map((h) => [h.file, h.status])).toEqual([
      ['src/mrtr-claims-redis.ts', 'written'],
      ['src/mrtr-continuation-sdk.ts', 'written'],
      ['src/mrtr-flow.ts', 'written'],
    ]);
    expect(read('src/mrtr-flow.ts')).toContain(`import { claimStore } from './mrtr-claims-redis.js';`);
    expect(read('src/mrtr-claims-redis.ts')).toContain(`from './mrtr-continuation-sdk.js';`);
    expect(JSON.parse(read('package.json')).dependencies).toEqual({ '@modelcontextprotocol/server': '^2.4.0', redis: '6.3.1' });
    expect(result.manifests).toMatchObject([{ file: 'package.json', status: 'written', added: { redis: '6.3.1' }, removed: [] }]);
    expect(result.nextSteps.map((s) => s.id)).toEqual(['install', 'state-keys', 'claims']);
    expect(result.nextSteps[2].text).toMatch(/MRTR_CLAIMS_REDIS_URL/);
  });

  it('the redis version added is the one this repository tests the store with', () => {
    const own = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(HELPER_PACKAGE_VERSIONS.redis).toBe(own.devDependencies.redis);
  });

  it('CommonJS: .js helpers with require/exports, and a require line in the ported file', async () => {
    write('package.json', JSON.stringify({ name: 'p' }));
    write('lib/a.js', `const { McpServer } = require('@modelcontextprotocol/server');\nasync function a(ctx) {\n${ASK}  return answer;\n}\nmodule.exports = { a };\n`);
    const result = await port();
    expect(result.helpers.map((h) => h.file)).toEqual(['lib/mrtr-claims.js', 'lib/mrtr-continuation.js', 'lib/mrtr-flow.js']);
    expect(read('lib/a.js').split('\n')[0]).toBe(`const { resumable } = require('./mrtr-flow.js');`);
    for (const file of ['mrtr-claims.js', 'mrtr-continuation.js', 'mrtr-flow.js']) expect(read(`lib/${file}`)).not.toMatch(/^\s*(import|export)\s/m);
    expect(read('lib/mrtr-flow.js')).toContain('require("./mrtr-claims.js")');
  });

  it('a transform that writes an ES import into a CommonJS file: the file is left as it was, said so, and gets no helper', async () => {
    write('package.json', JSON.stringify({ name: 'p' }));
    const source = `'use strict';\nconst { McpServer } = require('@modelcontextprotocol/server');\nasync function a(ctx) {\n${ASK}  return answer;\n}\nmodule.exports = { a };\n`;
    write('lib/a.js', source);
    const importing = (input: TransformInput) => flowTransform({ ...input, options: { ...input.options, module: 'esm' } });
    const result = await runPort({ cwd: dir, paths: ['.'], dependencies: fakeDependencies({ transform: importing, helperTemplate: renderHelper }) });
    expect(result.files.find((f) => f.file === 'lib/a.js')).toMatchObject({ status: 'failed', error: expect.stringMatching(/import\/export lines into a CommonJS file/) });
    expect(read('lib/a.js')).toBe(source);
    expect(result.helpers).toEqual([]);
  });

  it('a claim store that cannot be written keeps the files that need it through the flow', async () => {
    write('package.json', JSON.stringify({ name: 'p', type: 'module' }));
    write('src/a.ts', `export async function a(ctx: any) {\n${ASK}  return answer;\n}\n`);
    const before = read('src/a.ts');
    const result = await runPort({
      cwd: dir,
      paths: ['.'],
      dependencies: fakeDependencies({ transform: flowTransform, helperTemplate: renderHelper }),
      write: (file, bytes) => {
        if (file.endsWith('mrtr-claims.ts')) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        writeFileSync(file, bytes);
      },
    });
    expect(result.helpers.find((h) => h.file === 'src/mrtr-claims.ts')).toMatchObject({ status: 'failed' });
    expect(result.files.find((f) => f.file === 'src/a.ts')).toMatchObject({ status: 'failed', error: expect.stringContaining('src/mrtr-claims.ts could not be written') });
    expect(read('src/a.ts')).toBe(before);
    expect(result.nextSteps[0]).toMatchObject({ id: 'fix-failures' });
  });

  it('dry run: every helper as a new-file diff, nothing written', async () => {
    write('package.json', JSON.stringify({ name: 'p', type: 'module' }));
    write('src/a.js', `export async function a(ctx) {\n${ASK}  return answer;\n}\n`);
    const result = await port({ dryRun: true });
    expect(result.helpers.map((h) => [h.file, h.status])).toEqual([
      ['src/mrtr-claims.js', 'would-write'],
      ['src/mrtr-continuation.js', 'would-write'],
      ['src/mrtr-flow.js', 'would-write'],
    ]);
    expect(result.helpers[2].diff).toContain('+++ b/src/mrtr-flow.js');
    expect(existsSync(join(dir, 'src/mrtr-flow.js'))).toBe(false);
    expect(result.nextSteps[0]).toMatchObject({ id: 'apply' });
  });
});
