/**
 * Vitest setup file for measuring the suite, not a test: with MRTR_SUITE_CPU_OUT set (vitest.config.ts adds
 * this file first to every project), each test file appends one JSON line to that file: its CPU seconds in
 * the worker (`self`, from the file's collection to its last hook) and in the processes the worker spawned
 * and reaped meanwhile (`children`: the CLI, replicas, tsc, npm), and its wall seconds. Read from
 * /proc/self/stat (utime, stime, cutime, cstime), so it counts what `process.cpuUsage()` misses: children.
 * In a reused worker (isolate: false) a file's share starts where the previous file's ended.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function cpuTicks(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // fields after the command name (which may hold spaces): state is field 3, utime field 14
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { self: Number(fields[11]) + Number(fields[12]), children: Number(fields[13]) + Number(fields[14]) };
}

const out = process.env.MRTR_SUITE_CPU_OUT;
if (out) {
  const start = cpuTicks();
  const startedAt = Date.now();
  let file = '';
  beforeAll(() => {
    file = expect.getState().testPath ?? '';
  });
  afterAll(() => {
    const end = cpuTicks();
    const line = {
      file,
      self: (end.self - start.self) / TICKS_PER_SECOND,
      children: (end.children - start.children) / TICKS_PER_SECOND,
      wall: (Date.now() - startedAt) / 1000,
      pid: process.pid,
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  });
}
