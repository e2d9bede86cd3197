/**
 * The v1 migration of a whole run, off the main thread. The official codemod's transforms (ts-morph, its
 * own TypeScript copy) take most of a v1 port and need nothing from the rest of the run: text in, text
 * out. A worker thread runs them while the main thread prepares the type checker's declarations
 * (`prepare`), which the port's plan needs next; on two cores the two overlap instead of adding up.
 *
 * Where no worker can start (the sources run as TypeScript without a loader the worker inherits, a
 * platform without threads) or the worker dies, the remaining files migrate here, in this thread, with
 * the same function and in the same order: the results are the same either way.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { compileCacheInstalled } from '../compile-cache.cjs';
import type { V1MigrationResult } from './v1-migration.js';
import type { ProjectType } from './v1-detect.js';

export interface V1MigrationJob {
  source: string;
  path: string;
  projectType?: ProjectType;
  /** Offsets (in `source`) of the method names of calls to leave as written (v1-foreign-receivers.ts). */
  keep?: number[];
}

export type V1MigrationOutcome = { ok: true; result: V1MigrationResult } | { ok: false; error: string };

/** The worker's reply: one outcome per job, in order. */
export interface V1MigrationReply {
  outcomes: V1MigrationOutcome[];
}

/**
 * Below this many files the migration is short, and the worker's start-up (ts-morph and the codemod
 * loaded in it) and the declarations read meanwhile (which a plan with no type question never needs)
 * would cost more than they save: those run in-thread, as before.
 */
export const WORKER_MIN_FILES = 8;

/**
 * Migrates every job; `prepare` runs on this thread meanwhile (it is skipped when the migration has to
 * run here). Outcomes come back in the jobs' order; `ranIn` is told where they were made.
 *
 * Why the worker takes every job, with none shared back to this thread once it has prepared: the
 * codemod's output for a file depends on the files the same ts-morph project migrated before it
 * (salesforce-mcp-server's scanner.ts came out re-indented after its predecessors and not when another
 * thread took it first), and a split decided by timing would make the output depend on timing.
 */
export async function migrateV1Files(jobs: readonly V1MigrationJob[], prepare?: () => void, ranIn?: (where: 'worker' | 'here') => void): Promise<V1MigrationOutcome[]> {
  const worker = jobs.length >= WORKER_MIN_FILES ? startWorker(jobs) : undefined;
  if (!worker) {
    ranIn?.('here');
    return migrateHere(jobs);
  }
  try {
    prepare?.();
  } catch {
    // preparing is an optimisation: the plan builds what it needs itself
  }
  const outcomes = await worker;
  ranIn?.(outcomes ? 'worker' : 'here');
  return outcomes ?? migrateHere(jobs);
}

async function migrateHere(jobs: readonly V1MigrationJob[]): Promise<V1MigrationOutcome[]> {
  const { migrateV1Source } = await import('./v1-migration.js');
  return jobs.map((job) => migrateOne(migrateV1Source, job));
}

/** One job, its throw turned into an outcome (the runner keeps that file as it was). */
export function migrateOne(migrate: (input: V1MigrationJob) => V1MigrationResult, job: V1MigrationJob): V1MigrationOutcome {
  try {
    return { ok: true, result: migrate(job) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The worker's outcomes, or undefined when it could not start or did not finish (then this thread migrates). */
function startWorker(jobs: readonly V1MigrationJob[]): Promise<V1MigrationOutcome[] | undefined> | undefined {
  const entry = workerEntry();
  if (!entry) return undefined;
  let worker: Worker;
  try {
    // the parent's flags minus `--input-type`, which Node refuses for a worker started from a file (the
    // worker died at once and every job fell back to this thread, unseen)
    const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
    worker = new Worker(entry, { execArgv, workerData: { jobs, compileCache: compileCacheInstalled() } });
  } catch {
    return undefined;
  }
  return new Promise((resolve) => {
    let settled = false;
    const done = (value: V1MigrationOutcome[] | undefined): void => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    worker.once('message', (reply: V1MigrationReply) => done(reply.outcomes.length === jobs.length ? reply.outcomes : undefined));
    worker.once('error', () => done(undefined));
    worker.once('exit', () => done(undefined));
  });
}

/** The compiled worker next to this module; none when this module runs from its TypeScript source. */
function workerEntry(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.js')) return undefined;
  const entry = here.replace(/v1-migration-pool\.js$/, 'v1-migration-worker.js');
  return existsSync(entry) ? entry : undefined;
}
