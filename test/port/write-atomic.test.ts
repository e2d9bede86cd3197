import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/port/write-atomic.js';
import { removeDir } from './helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mrtr-port-atomic-'));
});
afterEach(() => removeDir(dir));

describe('writeFileAtomic', () => {
  it('replaces the content, keeps the file mode and leaves no temp file', () => {
    const file = join(dir, 'cli.ts');
    writeFileSync(file, 'old');
    chmodSync(file, 0o755);
    writeFileAtomic(file, 'new ✓');
    expect(readFileSync(file, 'utf8')).toBe('new ✓');
    expect(statSync(file).mode & 0o777).toBe(0o755);
    expect(readdirSync(dir)).toEqual(['cli.ts']);
  });

  it('creates a missing file', () => {
    const file = join(dir, 'mrtr-continuation.ts');
    writeFileAtomic(file, 'helper');
    expect(readFileSync(file, 'utf8')).toBe('helper');
  });

  it('on failure leaves what was there and cleans up its temp file', () => {
    // renaming a file over a non-empty directory fails after the temp file was written
    const target = join(dir, 'taken');
    mkdirSync(target);
    writeFileSync(join(target, 'keep.txt'), 'keep');
    expect(() => writeFileAtomic(target, 'x')).toThrow();
    expect(readFileSync(join(target, 'keep.txt'), 'utf8')).toBe('keep');
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it('fails without writing into a directory that does not exist', () => {
    expect(() => writeFileAtomic(join(dir, 'nope', 'x.ts'), 'x')).toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
