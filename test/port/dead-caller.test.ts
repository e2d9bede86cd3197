/**
 * A helper's ask shared by a tool and by dead code (fixtures/analyzer/dead-caller): the dead caller
 * never runs, so the tool's route decides. The site is auto, the port rewrites the shared ask and wraps
 * the tool, and the dead caller is left as written (still listed among the site's handlers, unportable).
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';
import { applyPortSource, defaultContinuationImport } from '../../transforms/index.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const dir = join(root, 'fixtures/analyzer/dead-caller');
const files = ['confirm.ts', 'helpers.ts', 'sampling.ts', 'server.ts', 'package.json'].map((f) => join(dir, f));

describe('an ask shared with dead code', () => {
  const texts = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
  const { report, plans } = analyze({ cwd: root, files, texts, plan: { roots: 'config' } });
  const site = report.sites.find((s) => s.file.endsWith('dead-caller/confirm.ts'))!;

  it('is auto, with the dead route still listed', () => {
    expect(site.portability).toBe('auto');
    expect(site.handlers!.map((h) => `${h.kind}:${h.portability}`).sort()).toEqual(['dead-code:unportable', 'tool:auto']);
  });

  it('is ported: the shared ask becomes the runtime\'s, the tool is wrapped, the dead caller is kept as written', () => {
    const port = (file: string): string => {
      const source = texts.get(file)!;
      const plan = plans.find((p) => p.file === relative(root, file)) ?? null;
      return applyPortSource({ source, path: file, plan, options: { codec: 'aead', roots: 'config', continuationImport: defaultContinuationImport(source) } });
    };
    const confirm = port(files[0]);
    expect(confirm).not.toContain('mcpReq.elicitInput(');
    expect(confirm).toContain('await elicit({ message, requestedSchema: yesNo })');
    expect(confirm).toContain('return askYesNo(ctx, `Pin note ${id}?`);');
    expect(confirm).not.toContain('@mrtr-port-todo');
    expect(port(files[3])).toContain("resumable('delete_note', async ({ id }, ctx) => {");
  });

  it('a helper only a barrel re-exports is dead code; its live sibling behind the same barrel is ported', () => {
    const sampling = report.sites.filter((s) => s.file.endsWith('dead-caller/sampling.ts')).map((s) => `${s.line} ${s.portability}(${s.reasons.join(',')})`);
    expect(sampling).toEqual(['12 auto()', '17 unportable(dead-code)']);
  });
});
