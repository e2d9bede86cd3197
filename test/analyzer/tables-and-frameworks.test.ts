/**
 * Who reaches a site when no registration call names it: tool tables found by value (records of tool
 * modules, lookups returning a handler, registries filled with Object.assign and returned, objects
 * made by a repo helper), other libraries' registrations, and code nothing can call. The fixtures'
 * headers pin the verdicts; this pins the handlers each site lists (kind, name, framework).
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';

const root = resolve(import.meta.dirname, '../..');

function handlersOf(folder: string): string[] {
  const dir = join(root, 'fixtures/analyzer', folder);
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
  const { report } = analyze({ cwd: dir, files });
  return report.sites.map((s) => `${s.file}:${s.line} ${(s.handlers ?? []).map((h) => `${h.kind}:${h.name ?? '?'}${h.framework ? `@${h.framework}` : ''}`).join(' ')}`);
}

describe('handlers found through tables, other libraries and dead code', () => {
  it('a record of tool modules leads to the dispatcher that never imports the tool: named by the object', () => {
    expect(handlersOf('tool-record')).toEqual(['tools/confirm.ts:11 tool:confirm']);
  });

  it('a lookup returning the handler, a returned Object.assign registry and a defineTool object name their tools', () => {
    expect(handlersOf('tool-lookups')).toEqual(['tools.ts:16 tool:approve', 'tools.ts:31 tool:archive', 'tools.ts:43 tool:summarize']);
  });

  it("another library's addTool / tool / addResource is a handler registered by that package", () => {
    expect(handlersOf('frameworks').filter((s) => s.startsWith('other-libraries.ts'))).toEqual([
      'other-libraries.ts:16 tool:approve@fastmcp',
      'other-libraries.ts:23 tool:confirm@tmcp',
      'other-libraries.ts:29 resource:notes://summary@fastmcp',
    ]);
  });

  it('dead code is said only with the package entry analyzed: the same helpers analyzed without it are manual', () => {
    expect(handlersOf('dead-code')).toEqual([
      'api.ts:8 no-handler:?',
      // public API: the in-repo notification caller, and the package's users
      'public-class.ts:20 notification-handler:? no-handler:?',
      'public-class.ts:25 notification-handler:?',
      'unused.ts:10 dead-code:?',
      'unused.ts:15 dead-code:?',
      'unused.ts:21 dead-code:?',
      'unused.ts:27 no-handler:?',
    ]);
    const dir = join(root, 'fixtures/analyzer/dead-code');
    const { report } = analyze({ cwd: dir, files: [join(dir, 'unused.ts')] });
    expect(report.sites.map((s) => `${s.line} ${s.portability}(${s.reasons.join(',')})`)).toEqual(['10 manual(no-handler)', '15 manual(no-handler)', '21 manual(no-handler)', '27 manual(no-handler)']);
  });

  it('a word in prose elsewhere is no caller; a module that names the file and the word may be one', () => {
    const dir = join(root, 'fixtures/analyzer/dead-code');
    const files = ['config.ts', 'index.ts', 'package.json', 'unused.ts', 'wording.ts'].map((f) => join(dir, f));
    const verdicts = (extra: Map<string, string>) =>
      analyze({ cwd: dir, files: [...files, ...extra.keys()], texts: extra }).report.sites.filter((s) => s.file === 'unused.ts').map((s) => `${s.line} ${s.portability}`);
    expect(verdicts(new Map())).toEqual(['10 unportable', '15 unportable', '21 unportable', '27 manual']);
    // a module importing unused.ts whose text holds `orphan` (a call the walk cannot see, say through a namespace passed around)
    const importer = new Map([[join(dir, 'importer.ts'), "import * as u from './unused.js';\nexport const pick = (k: string) => (u as Record<string, unknown>)[k] ?? 'orphan';\n"]]);
    expect(verdicts(importer)).toEqual(['10 manual', '15 unportable', '21 unportable', '27 manual']);
  });
});
