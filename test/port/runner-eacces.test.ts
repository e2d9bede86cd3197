/**
 * Issue 10: EACCES for real. A `port` process running as an unprivileged user (spawned as `nobody`)
 * meets a folder it cannot list, a file it cannot read and a file it cannot write: each is reported
 * (and counts as maybe holding a site), none is changed, and the rest of the tree is ported.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileOutcome } from '../../src/port/index.js';
import { removeDir, repoRoot } from './helpers.js';

const NOBODY = 65534;
const canDropPrivileges = process.getuid?.() === 0 && spawnSync('id', ['-un', String(NOBODY)]).status === 0;

let dir: string | undefined;
afterEach(() => dir && removeDir(dir));

const TOOL = `export async function handler(ctx: any) {\n  return ctx.mcpReq.elicitInput({ message: 'ok?' });\n}\n`;

describe.runIf(canDropPrivileges)('port as a user without the permissions (spawned as nobody)', () => {
  it('reports the folder it cannot list, the file it cannot read and the file it cannot write; ports the rest', () => {
    dir = mkdtempSync(join(tmpdir(), 'mrtr-port-eacces-'));
    const own = (path: string) => chownSync(path, NOBODY, NOBODY);
    own(dir);
    for (const d of ['src', 'src/locked']) mkdirSync(join(dir, d));
    own(join(dir, 'src'));
    const put = (rel: string, mine: boolean, mode = 0o644) => {
      writeFileSync(join(dir!, rel), TOOL);
      if (mine) own(join(dir!, rel));
      chmodSync(join(dir!, rel), mode);
    };
    put('src/open.ts', true);
    put('src/locked/inside.ts', false);
    chmodSync(join(dir, 'src/locked'), 0o700); // root's, not listable by nobody
    put('src/secret.ts', false, 0o600); // root's, not readable
    put('src/theirs.ts', false, 0o644); // root's, readable, not writable

    const tsx = pathToFileURL(createRequire(join(repoRoot, 'package.json')).resolve('tsx')).href;
    const r = spawnSync(process.execPath, ['--import', tsx, join(repoRoot, 'test/port/port-child.ts'), dir], {
      uid: NOBODY,
      gid: NOBODY,
      encoding: 'utf8',
      // tsx keeps its cache in the temp dir, per user
      env: { ...process.env, HOME: dir },
    });
    expect(r.stderr).toBe('');
    const files = JSON.parse(/^done (.*)$/m.exec(r.stdout)![1]) as FileOutcome[];
    const byFile = new Map(files.map((f) => [f.file, f]));
    expect(byFile.get('src/locked')).toMatchObject({ status: 'skipped', reason: 'unreadable: EACCES (a folder that could not be listed)', mayHoldSites: true });
    expect(byFile.get('src/secret.ts')).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^unreadable: EACCES/), mayHoldSites: true });
    expect(byFile.get('src/theirs.ts')).toMatchObject({ status: 'failed', error: expect.stringMatching(/^read-only: /) });
    expect(byFile.get('src/open.ts')).toMatchObject({ status: 'changed' });
    for (const rel of ['src/locked/inside.ts', 'src/secret.ts', 'src/theirs.ts']) expect(readFileSync(join(dir, rel), 'utf8')).toBe(TOOL);
    expect(readFileSync(join(dir, 'src/open.ts'), 'utf8')).toContain('askPorted(');
  }, 120_000);
});
