/**
 * The v1 migration off the main thread (src/port/v1-migration-pool.ts): the compiled pool, started as the
 * built CLI runs it, migrates in a worker while `prepare` runs on the calling thread, and gives exactly
 * what the in-thread migration gives; from the TypeScript sources (no worker) it
 * migrates in-thread and never calls `prepare`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrateV1Files, WORKER_MIN_FILES, type V1MigrationJob } from '../../src/port/v1-migration-pool.js';
import { migrateV1Source } from '../../src/port/v1-migration.js';
import { compiledScript } from '../compiled.js';
import { repoRoot } from './helpers.js';

const mini = join(repoRoot, 'fixtures/port/v1-mini/src');
const files = readdirSync(mini).filter((f) => f.endsWith('.ts')).sort();
const jobs: V1MigrationJob[] = [
  // enough files for a worker (WORKER_MIN_FILES): the fixture's files, each under several names
  ...Array.from({ length: Math.ceil(WORKER_MIN_FILES / files.length) }, (_, copy) =>
    files.map((f) => ({ source: readFileSync(join(mini, f), 'utf8'), path: join(mini, `${copy}-${f}`), projectType: 'server' as const })),
  ).flat(),
  // a file that does not parse: the codemod's tolerant parser takes it all the same, on either thread
  { source: 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nconst x = ;\n', path: join(mini, 'broken.ts'), projectType: 'server' },
];

function inThread(): unknown[] {
  return jobs.map((job) => {
    try {
      return { ok: true, result: migrateV1Source(job) };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  });
}

describe('migrateV1Files', () => {
  it('compiled: migrates in a worker thread while prepare runs here, with the in-thread results', () => {
    const pool = pathToFileURL(compiledScript('src/port/v1-migration-pool.ts')).href;
    const script = `
      const { migrateV1Files } = await import(${JSON.stringify(pool)});
      const { threadId } = await import('node:worker_threads');
      const jobs = JSON.parse(process.argv[1]);
      let prepared, where;
      const outcomes = await migrateV1Files(jobs, () => { prepared = threadId; }, (w) => { where = w; });
      process.stdout.write(JSON.stringify({ prepared, where, outcomes }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(jobs)], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(r.stderr).toBe('');
    const { prepared, where, outcomes } = JSON.parse(r.stdout) as { prepared: number; where: string; outcomes: unknown[] };
    // prepare ran, on the calling (main) thread, and the outcomes came from the worker (started from a
    // process run with --input-type=module, whose flag a worker refuses: it used to die unseen)
    expect(prepared).toBe(0);
    expect(where).toBe('worker');
    expect(outcomes).toEqual(inThread());
  }, 120_000);

  it('a short migration runs in-thread, compiled too: no worker start-up, no declarations read for nothing', () => {
    const pool = pathToFileURL(compiledScript('src/port/v1-migration-pool.ts')).href;
    const script = `
      const { migrateV1Files } = await import(${JSON.stringify(pool)});
      let prepared = false;
      await migrateV1Files(JSON.parse(process.argv[1]), () => { prepared = true; });
      process.stdout.write(JSON.stringify({ prepared }));
    `;
    const few = jobs.slice(0, WORKER_MIN_FILES - 1);
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(few)], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ prepared: false });
  }, 120_000);

  it('from the TypeScript sources: in-thread, prepare not called, the same results', async () => {
    let prepared = false;
    const outcomes = await migrateV1Files(jobs, () => void (prepared = true));
    expect(prepared).toBe(false);
    expect(outcomes).toEqual(inThread());
  }, 120_000);
});
