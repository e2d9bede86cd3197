import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PathAliases } from '../../src/analyzer/path-aliases.js';
import { Project } from '../../src/analyzer/project.js';

const root = mkdtempSync(join(tmpdir(), 'mrtr-aliases-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes files (path → text) under a fresh folder; returns it and the absolute paths of the source files. */
function tree(name: string, files: Record<string, string>): { dir: string; sources: Set<string> } {
  const dir = join(root, name);
  const sources = new Set<string>();
  for (const [rel, text] of Object.entries(files)) {
    const abs = join(dir, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    if (/\.[cm]?[jt]sx?$/.test(rel)) sources.add(abs);
  }
  return { dir, sources };
}

const config = (compilerOptions: object, more: object = {}) => JSON.stringify({ compilerOptions, ...more });

describe('PathAliases (tsconfig paths and baseUrl)', () => {
  it('maps a wildcard alias to an analyzed file, with or without an extension, and a folder to its index', () => {
    const { dir, sources } = tree('wildcard', {
      'tsconfig.json': config({ paths: { '@/*': ['src/*'] } }),
      'src/lib/log.ts': '',
      'src/tools/index.ts': '',
      'src/server.ts': '',
    });
    const aliases = new PathAliases(sources, dir);
    const from = join(dir, 'src/server.ts');
    expect(aliases.resolve(from, '@/lib/log')).toBe(join(dir, 'src/lib/log.ts'));
    expect(aliases.resolve(from, '@/lib/log.js')).toBe(join(dir, 'src/lib/log.ts'));
    expect(aliases.resolve(from, '@/tools')).toBe(join(dir, 'src/tools/index.ts'));
    expect(aliases.resolve(from, '@/lib/missing')).toBeUndefined();
    // a package name no pattern takes, without baseUrl: not ours
    expect(aliases.resolve(from, 'zod')).toBeUndefined();
  });

  it('tries the substitutions in order, prefers an exact key, then the longest prefix', () => {
    const { dir, sources } = tree('order', {
      'tsconfig.json': config({
        baseUrl: '.',
        paths: { '@lib/*': ['vendor/*', 'lib/*'], '@lib/special/*': ['special/*'], config: ['settings/main.ts'], '*': ['types/*'] },
      }),
      'lib/ask.ts': '',
      'special/ask.ts': '',
      'settings/main.ts': '',
      'types/ask.ts': '',
      'app.ts': '',
    });
    const aliases = new PathAliases(sources, dir);
    const from = join(dir, 'app.ts');
    expect(aliases.resolve(from, '@lib/ask')).toBe(join(dir, 'lib/ask.ts'));
    expect(aliases.resolve(from, '@lib/special/ask')).toBe(join(dir, 'special/ask.ts'));
    expect(aliases.resolve(from, 'config')).toBe(join(dir, 'settings/main.ts'));
    // `*` alone takes any name: its substitution, then baseUrl
    expect(aliases.resolve(from, 'ask')).toBe(join(dir, 'types/ask.ts'));
  });

  it('resolves a bare name against baseUrl when no pattern takes it', () => {
    const { dir, sources } = tree('base-url', {
      'tsconfig.json': config({ baseUrl: 'src' }),
      'src/utils/logger.ts': '',
      'src/index.ts': '',
    });
    const aliases = new PathAliases(sources, dir);
    expect(aliases.resolve(join(dir, 'src/index.ts'), 'utils/logger')).toBe(join(dir, 'src/utils/logger.ts'));
    expect(aliases.resolve(join(dir, 'src/index.ts'), 'utils/other')).toBeUndefined();
  });

  it("takes the nearest config and follows its extends (paths relative to the config that set them)", () => {
    const { dir, sources } = tree('monorepo', {
      'tsconfig.base.json': config({ paths: { '@shared/*': ['packages/shared/src/*'] } }),
      'packages/app/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: { strict: true } }),
      'packages/app/src/main.ts': '',
      'packages/shared/src/ask.ts': '',
      'packages/other/tsconfig.json': config({ paths: { '@shared/*': ['nowhere/*'] } }),
      'packages/other/src/main.ts': '',
    });
    const aliases = new PathAliases(sources, dir);
    expect(aliases.resolve(join(dir, 'packages/app/src/main.ts'), '@shared/ask')).toBe(join(dir, 'packages/shared/src/ask.ts'));
    expect(aliases.resolve(join(dir, 'packages/other/src/main.ts'), '@shared/ask')).toBeUndefined();
  });

  it('reads jsconfig.json too, and a config with a comment and a trailing comma', () => {
    const { dir, sources } = tree('jsconfig', {
      'jsconfig.json': '{\n  // the app\'s aliases\n  "compilerOptions": { "paths": { "~/*": ["./lib/*"], }, },\n}\n',
      'lib/ask.js': '',
      'main.js': '',
    });
    expect(new PathAliases(sources, dir).resolve(join(dir, 'main.js'), '~/ask')).toBe(join(dir, 'lib/ask.js'));
  });

  it("lets the project follow an alias, but never re-maps the SDK's own names", () => {
    const { dir, sources } = tree('project', {
      'tsconfig.json': config({ paths: { '@/*': ['src/*'], '@modelcontextprotocol/server': ['src/fake-sdk.ts'] } }),
      'src/fake-sdk.ts': 'export const McpServer = 1;\n',
      'src/lib/ask.ts': 'export const ask = 1;\n',
      'src/main.ts': "import { ask } from '@/lib/ask';\nimport { McpServer } from '@modelcontextprotocol/server';\n",
    });
    const project = new Project(dir, [...sources]);
    const main = join(dir, 'src/main.ts');
    expect(project.localModule(main, '@/lib/ask')).toBe(join(dir, 'src/lib/ask.ts'));
    expect(project.isLocalSpecifier('@/lib/ask', main)).toBe(true);
    expect(project.localModule(main, '@modelcontextprotocol/server')).toBeUndefined();
    const index = project.get(main)!;
    expect(project.resolveImport(index, '@/lib/ask', 'ask')).toMatchObject({ local: 'ask' });
  });
});
