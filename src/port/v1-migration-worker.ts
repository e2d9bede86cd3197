/**
 * The worker thread of v1-migration-pool.ts: migrates the jobs it is given, in order, and posts every
 * outcome in one reply. It installs V8's code cache when the thread that started it had (the CLI).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { installCompileCache } from '../compile-cache.cjs';
import { migrateOne, type V1MigrationJob, type V1MigrationReply } from './v1-migration-pool.js';

const { jobs, compileCache } = workerData as { jobs: V1MigrationJob[]; compileCache: boolean };
if (compileCache) installCompileCache();
const { migrateV1Source } = await import('./v1-migration.js');
const reply: V1MigrationReply = { outcomes: jobs.map((job) => migrateOne(migrateV1Source, job)) };
parentPort!.postMessage(reply);
