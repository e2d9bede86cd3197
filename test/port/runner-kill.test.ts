/**
 * Issue 10, case 5 and the property: a `port` process killed at any moment of its write phase (SIGKILL:
 * no handler runs) leaves every file either its original bytes or its fully ported bytes, and a second
 * run completes the job and leaves nothing else in the tree. SIGINT and SIGTERM end the run without
 * leaving debris at all. The child is test/port/port-child.ts (the real runner, stand-in analyzer and
 * transform; compiled to JS by test/global-setup.ts); the oracle is the same tree ported in-process
 * without interruption.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isDebrisName } from '../../src/port/cleanup.js';
import { runPort } from '../../src/port/index.js';
import { fakeDependencies } from './fakes.js';
import { compiledScript } from '../compiled.js';
import { removeDir } from './helpers.js';
import { buildTree, treeSpecs, treeState, type Entry, type TreeSpec } from './trees.js';

const made: string[] = [];
afterAll(() => made.forEach(removeDir));
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-port-kill-'));
  made.push(dir);
  return dir;
};

// compiled once per run (test/global-setup.ts): each strike starts a plain node process, not tsx
const CHILD = compiledScript('test/port/port-child.ts');

interface Strike {
  signal: 'SIGKILL' | 'SIGTERM' | 'SIGINT';
  /** Strike when the child announces its n-th swap (1-based); past the last one, the run simply completes. */
  atSwap: number;
}

/** Runs the child on `cwd` and strikes as told; resolves with how it ended and the swaps it announced. */
function runChild(cwd: string, paths: readonly string[], strike: Strike): Promise<{ code: number | null; signal: string | null; swaps: number }> {
  return new Promise((resolve, reject) => {
    // the child waits at each swap for a byte from us: the strike lands there, whatever the machine's load
    const child = spawn(process.execPath, [CHILD, cwd, ...paths], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, MRTR_CHILD_HANDSHAKE: '1' } });
    child.stdin.on('error', () => {}); // the child may be gone when we answer
    let swaps = 0;
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('swap ')) continue;
        if (++swaps === strike.atSwap) {
          child.kill(strike.signal);
          // SIGTERM/SIGINT are handled in JavaScript, which runs once the child stops waiting
          if (strike.signal !== 'SIGKILL') child.stdin.write('g');
        } else {
          child.stdin.write('g');
        }
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, swaps }));
  });
}

/** The tree an uninterrupted run makes, and the tree before any run. */
async function oracle(spec: TreeSpec): Promise<{ before: Map<string, Entry>; after: Map<string, Entry> }> {
  const dir = fresh();
  const paths = buildTree(dir, spec);
  const before = treeState(dir);
  await runPort({ cwd: dir, paths, dependencies: fakeDependencies() });
  return { before, after: treeState(dir) };
}

/** Every entry is its original or its fully ported self; anything extra is recognisable debris. */
function expectOriginalOrPorted(state: Map<string, Entry>, before: Map<string, Entry>, after: Map<string, Entry>): void {
  for (const [rel, entry] of state) {
    if (!after.has(rel) && !before.has(rel)) {
      expect(isDebrisName(basename(rel)), `unexpected ${rel}`).toBe(true);
      continue;
    }
    const allowed = [before.get(rel), after.get(rel)].filter((e) => e !== undefined).map((e) => e.content);
    expect(allowed, `${rel} is neither its original nor its ported bytes`).toContain(entry.content);
  }
  for (const rel of after.keys()) if (!after.get(rel)!.content.length || before.has(rel)) expect(state.has(rel), `${rel} is gone`).toBe(true);
}

const withoutDebris = (state: Map<string, Entry>) => new Map([...state].filter(([rel]) => !isDebrisName(basename(rel))));

describe('a port killed during its write phase', () => {
  const spec: TreeSpec = {
    files: [
      { kind: 'utf8', dir: 'src' },
      { kind: 'bom-crlf', dir: 'src' },
      { kind: 'utf16le', dir: 'src/tools' },
      { kind: 'hardlinked', dir: 'src/tools' },
      { kind: 'utf8', dir: 'src/tools' },
      { kind: 'utf16be', dir: 'src' },
      { kind: 'named-symlink', dir: 'src' },
      { kind: 'latin1', dir: 'src' },
      { kind: 'readonly', dir: 'src' },
    ],
  };

  it('SIGKILL at every swap: original or ported bytes, then the next run completes it exactly', async () => {
    const { before, after } = await oracle(spec);
    // swaps in a full run: the helper and the six portable files
    for (let atSwap = 1; atSwap <= 7; atSwap++) {
      const dir = fresh();
      const paths = buildTree(dir, spec);
      const ended = await runChild(dir, paths, { signal: 'SIGKILL', atSwap });
      expect(ended.signal, `strike at swap ${atSwap}`).toBe('SIGKILL');
      expectOriginalOrPorted(treeState(dir), before, after);
      await runPort({ cwd: dir, paths, dependencies: fakeDependencies() });
      expect(treeState(dir)).toEqual(after);
    }
  }, 240_000);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal}: the run ends without leaving debris, every file original or ported`, async () => {
      const { before, after } = await oracle(spec);
      const dir = fresh();
      const paths = buildTree(dir, spec);
      const ended = await runChild(dir, paths, { signal, atSwap: 3 });
      expect(ended.signal).toBe(signal);
      const state = treeState(dir);
      expect(withoutDebris(state)).toEqual(state);
      expectOriginalOrPorted(state, before, after);
    }, 120_000);
  }
});

describe('property: any tree, killed at any moment, then run again', () => {
  it('ends as the uninterrupted run ends it: ported or original bytes, links and modes kept, nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(treeSpecs, fc.integer({ min: 1, max: 12 }), async (spec, atSwap) => {
        const { before, after } = await oracle(spec);
        const dir = fresh();
        const paths = buildTree(dir, spec);
        await runChild(dir, paths, { signal: 'SIGKILL', atSwap });
        expectOriginalOrPorted(treeState(dir), before, after);
        await runPort({ cwd: dir, paths, dependencies: fakeDependencies() });
        expect(treeState(dir)).toEqual(after);
      }),
      // each case spawns one process: bounded for CI's two cores
      { numRuns: 8 },
    );
  }, 300_000);
});
