/** The example output in docs/cli.md and the site tables in fixtures/projects/README.md are what the tool prints. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAnalyze } from '../../src/index.js';
import { PROJECTS, REPO_ROOT } from './helpers.js';

describe('docs stay in sync with the tool', () => {
  it('docs/cli.md shows the real `npm run example` output', async () => {
    const doc = readFileSync(path.join(REPO_ROOT, 'docs/cli.md'), 'utf8');
    const block = /```console\n\$ npm run example[^\n]*\n([\s\S]*?)```/.exec(doc);
    expect(block).not.toBeNull();
    const { output } = await runAnalyze({ cwd: REPO_ROOT, paths: ['fixtures/projects/notes-v2'] });
    expect(block![1]).toBe(output);
  });

  it.each(['notes-v2', 'notes-v1'])('fixtures/projects/README.md lists every %s site with its verdict', async (name) => {
    const readme = readFileSync(path.join(PROJECTS, 'README.md'), 'utf8');
    const section = readme.split(`## \`${name}/\``)[1].split('\n## ')[0];
    const documented = [...section.matchAll(/^\| `([^`]+):(\d+)` \|[^|]*\|[^|]*\| (\w+)/gm)].map((m) => `${m[1]}:${m[2]} ${m[3]}`);
    const { report } = await runAnalyze({ cwd: path.join(PROJECTS, name) });
    expect(documented).toEqual(report.sites.map((s) => `${s.file}:${s.line} ${s.portability}`));
  });
});
