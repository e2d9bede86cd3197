/**
 * A handler registered in one file whose ask lives in another (a helper module, another workspace
 * package): the registration file holds no site, but the plan wraps its registration, so `port` must
 * rewrite it too. Otherwise the ask becomes a runtime call outside any resumable handler ("auto is a
 * promise" broken at run time). On a copy of fixtures/analyzer/workspace.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPort } from '../../src/port/index.js';
import { copyFixture, removeDir } from './helpers.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});
const read = (rel: string) => readFileSync(join(dir!, rel), 'utf8');

describe('port wraps registrations in files without a site', () => {
  it('wraps the tool of the app and the registry of another package, next to the rewritten asks', async () => {
    dir = copyFixture('analyzer', 'workspace');
    const result = await runPort({ cwd: dir, paths: ['.'] });
    expect(result.summary).toMatchObject({ failed: 0, skipped: 0 });
    expect(read('packages/asks/src/index.ts')).toContain('await elicit({');
    expect(read('packages/app/src/tools.ts')).toContain('await sample({');
    // the registrations: the app's own tool, and the registry's loop in @ws/core
    expect(read('packages/app/src/server.ts')).toContain("resumable('greet', async (_args, ctx) =>");
    expect(read('packages/core/src/index.ts')).toMatch(/resumable\(name, async \(args, ctx\) => def\.handler\(args, ctx\)\)/);
    expect(read('packages/core/src/index.ts')).toMatch(/import \{ resumable \} from '\.\/mrtr-flow(\.js)?';/);
    expect(result.helpers.map((h) => h.file)).toEqual(expect.arrayContaining(['packages/core/src/mrtr-flow.ts', 'packages/app/src/mrtr-flow.ts', 'packages/asks/src/mrtr-flow.ts']));
  });
});
