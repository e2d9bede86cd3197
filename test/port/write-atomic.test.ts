import { chmodSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../src/port/fingerprint.js';
import { ChangedOnDiskError, replaceFile, type ReadState } from '../../src/port/write-atomic.js';
import { removeDir } from './helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mrtr-port-atomic-'));
});
afterEach(() => removeDir(dir));

/** The file as a read stage would have recorded it. */
function stateOf(file: string): ReadState {
  const bytes = readFileSync(file);
  const stats = statSync(file, { bigint: true });
  return { bytes, fingerprint: fingerprintOf(stats, bytes), mode: Number(stats.mode) & 0o7777, uid: Number(stats.uid), gid: Number(stats.gid), nlink: Number(stats.nlink) };
}

describe('replaceFile', () => {
  it('replaces the content, keeps the file mode and leaves no temp file', () => {
    const file = join(dir, 'cli.ts');
    writeFileSync(file, 'old');
    chmodSync(file, 0o755);
    replaceFile(file, Buffer.from('new ✓'), { expect: stateOf(file) });
    expect(readFileSync(file, 'utf8')).toBe('new ✓');
    expect(statSync(file).mode & 0o777).toBe(0o755);
    expect(readdirSync(dir)).toEqual(['cli.ts']);
  });

  it('creates a missing file, and refuses to when one appeared meanwhile', () => {
    const file = join(dir, 'mrtr-continuation.ts');
    replaceFile(file, Buffer.from('helper'), { expect: 'absent' });
    expect(readFileSync(file, 'utf8')).toBe('helper');
    expect(() => replaceFile(file, Buffer.from('again'), { expect: 'absent' })).toThrow(ChangedOnDiskError);
    expect(readFileSync(file, 'utf8')).toBe('helper');
    expect(readdirSync(dir)).toEqual(['mrtr-continuation.ts']);
  });

  it('leaves a file changed after it was read, even in the last moment before the swap', () => {
    const file = join(dir, 'a.ts');
    writeFileSync(file, 'original');
    const state = stateOf(file);
    expect(() =>
      replaceFile(file, Buffer.from('ported'), { expect: state, beforeSwap: () => writeFileSync(file, 'the user typed this') }),
    ).toThrow(/^changed-on-disk: /);
    expect(readFileSync(file, 'utf8')).toBe('the user typed this');
    expect(readdirSync(dir)).toEqual(['a.ts']);
  });

  it('writes a hard-linked file in place: every link sees the new bytes, no backup is left', () => {
    const file = join(dir, 'a.ts');
    const other = join(dir, 'b.ts');
    writeFileSync(file, 'original');
    linkSync(file, other);
    const ino = statSync(file).ino;
    replaceFile(file, Buffer.from('ported, longer than before'), { expect: stateOf(file) });
    expect(readFileSync(other, 'utf8')).toBe('ported, longer than before');
    expect(statSync(file).ino).toBe(ino);
    expect(statSync(file).nlink).toBe(2);
    replaceFile(file, Buffer.from('short'), { expect: stateOf(file) });
    expect(readFileSync(other, 'utf8')).toBe('short');
    expect(readdirSync(dir).sort()).toEqual(['a.ts', 'b.ts']);
  });

  it('in place too, a change in the last moment is refused and the backup removed', () => {
    const file = join(dir, 'a.ts');
    writeFileSync(file, 'original');
    linkSync(file, join(dir, 'b.ts'));
    const state = stateOf(file);
    expect(() => replaceFile(file, Buffer.from('ported'), { expect: state, beforeSwap: () => writeFileSync(file, 'edited') })).toThrow(ChangedOnDiskError);
    expect(readFileSync(file, 'utf8')).toBe('edited');
    expect(readdirSync(dir).sort()).toEqual(['a.ts', 'b.ts']);
  });

  it('on failure leaves what was there and cleans up its temp file', () => {
    // renaming a file over a non-empty directory fails after the temp file was written
    const target = join(dir, 'taken');
    mkdirSync(target);
    writeFileSync(join(target, 'keep.txt'), 'keep');
    const state = { ...stateOf(join(target, 'keep.txt')), fingerprint: fingerprintOf(statSync(target, { bigint: true }), Buffer.alloc(0)) };
    expect(() => replaceFile(target, Buffer.from('x'), { expect: state })).toThrow();
    expect(readFileSync(join(target, 'keep.txt'), 'utf8')).toBe('keep');
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it('fails without writing into a directory that does not exist', () => {
    expect(() => replaceFile(join(dir, 'nope', 'x.ts'), Buffer.from('x'), { expect: 'absent' })).toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
