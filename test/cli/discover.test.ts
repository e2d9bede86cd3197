import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverFiles, isSourceFile } from '../../src/port/discover.js';
import { rel, tempDir, writeTree } from './helpers.js';

const src = 'export const x = 1;\n';

describe('discoverFiles', () => {
  it('finds every source extension, sorted and absolute, and skips declarations and other files', async () => {
    const root = tempDir();
    writeTree(root, {
      'b.ts': src, 'a.tsx': src, 'c.mts': src, 'd.cts': src, 'e.js': src, 'f.jsx': src, 'g.mjs': src, 'h.cjs': src,
      'types.d.ts': src, 'types.d.mts': src, 'types.d.cts': src, 'README.md': '# x', 'data.json': '{}',
    });
    const { files, missing, empty } = await discoverFiles({ cwd: root, paths: ['.'] });
    expect(rel(root, files)).toEqual(['a.tsx', 'b.ts', 'c.mts', 'd.cts', 'e.js', 'f.jsx', 'g.mjs', 'h.cjs']);
    expect(files.every((f) => path.isAbsolute(f))).toBe(true);
    expect(missing).toEqual([]);
    expect(empty).toEqual([]);
  });

  it('skips node_modules and build output at any depth', async () => {
    const root = tempDir();
    writeTree(root, {
      'src/a.ts': src,
      'node_modules/pkg/index.js': src,
      'packages/p/node_modules/q/index.ts': src,
      'dist/a.js': src, 'build/a.js': src, 'out/a.js': src, 'coverage/a.js': src, '.next/a.js': src,
      'packages/p/dist/x.js': src,
      'packages/p/src/b.ts': src,
    });
    const { files } = await discoverFiles({ cwd: root });
    expect(rel(root, files)).toEqual(['packages/p/src/b.ts', 'src/a.ts']);
  });

  it('applies nested .gitignore files with git precedence (deeper wins, negation re-includes)', async () => {
    const root = tempDir();
    writeTree(root, {
      '.gitignore': 'generated/\n*.gen.ts\n',
      'src/a.ts': src,
      'src/a.gen.ts': src,
      'generated/x.ts': src,
      'src/sub/.gitignore': '!keep.gen.ts\nlocal.ts\n',
      'src/sub/keep.gen.ts': src,
      'src/sub/drop.gen.ts': src,
      'src/sub/local.ts': src,
      'other/local.ts': src,
    });
    const { files } = await discoverFiles({ cwd: root });
    expect(rel(root, files)).toEqual(['other/local.ts', 'src/a.ts', 'src/sub/keep.gen.ts']);
  });

  it('applies the repository .gitignore above the scanned folder when inside a git work tree', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, '.git'));
    writeTree(root, {
      '.gitignore': 'app/legacy/\n',
      '.git/info/exclude': 'scratch.ts\n',
      'app/.gitignore': '*.tmp.ts\n',
      'app/src/a.ts': src,
      'app/src/b.tmp.ts': src,
      'app/src/scratch.ts': src,
      'app/legacy/old.ts': src,
    });
    const { files } = await discoverFiles({ cwd: root, paths: ['app'] });
    expect(rel(root, files)).toEqual(['app/src/a.ts']);
  });

  it('ignores the .gitignore of folders above the scan when not inside a git work tree', async () => {
    const root = tempDir();
    writeTree(root, { '.gitignore': 'app/\n', 'app/a.ts': src });
    const { files } = await discoverFiles({ cwd: root, paths: ['app'] });
    expect(rel(root, files)).toEqual(['app/a.ts']);
  });

  it('applies --ignore globs relative to cwd, after .gitignore (they can drop a re-included file)', async () => {
    const root = tempDir();
    writeTree(root, {
      '.gitignore': '*.gen.ts\n!keep.gen.ts\n',
      'src/a.ts': src,
      'src/a.test.ts': src,
      'src/keep.gen.ts': src,
      'src/vendor/v.ts': src,
      'lib/a.test.ts': src,
    });
    const { files } = await discoverFiles({ cwd: root, ignore: ['**/*.test.ts', 'src/vendor/', 'keep.gen.ts'] });
    expect(rel(root, files)).toEqual(['src/a.ts']);
  });

  it('does not follow symlinks found while walking, and lists them', async () => {
    const root = tempDir();
    const outside = tempDir();
    writeTree(outside, { 'secret.ts': src, 'lib/deep.ts': src });
    writeTree(root, { 'src/a.ts': src });
    symlinkSync(path.join(outside, 'lib'), path.join(root, 'src/linked-dir'));
    symlinkSync(path.join(outside, 'secret.ts'), path.join(root, 'src/linked.ts'));
    symlinkSync(path.join(root, 'src'), path.join(root, 'src/loop'));
    const { files, symlinks } = await discoverFiles({ cwd: root });
    expect(rel(root, files)).toEqual(['src/a.ts']);
    expect(rel(root, symlinks)).toEqual(['src/linked-dir', 'src/linked.ts', 'src/loop']);
  });

  it('reports named paths that are missing or hold no source file, and keeps the rest', async () => {
    const root = tempDir();
    writeTree(root, { 'src/a.ts': src, 'docs/readme.md': '#', 'only-deps/node_modules/x.js': src, 'notes.txt': 'x' });
    const result = await discoverFiles({ cwd: root, paths: ['src', 'nope', 'docs', 'only-deps', 'notes.txt', 'src/a.ts'] });
    expect(rel(root, result.files)).toEqual(['src/a.ts']);
    expect(result.missing).toEqual(['nope']);
    expect(result.empty).toEqual(['docs', 'only-deps', 'notes.txt']);
  });

  it('takes a named file even when a .gitignore would skip it during a walk', async () => {
    const root = tempDir();
    writeTree(root, { '.gitignore': 'gen.ts\n', 'gen.ts': src });
    expect(rel(root, (await discoverFiles({ cwd: root })).files)).toEqual([]);
    expect(rel(root, (await discoverFiles({ cwd: root, paths: ['gen.ts'] })).files)).toEqual(['gen.ts']);
  });

  it('classifies source names', () => {
    expect(isSourceFile('/x/a.ts')).toBe(true);
    expect(isSourceFile('/x/a.d.ts')).toBe(false);
    expect(isSourceFile('/x/a.json')).toBe(false);
    expect(isSourceFile('/x/a.cjs')).toBe(true);
  });
});

describe('discoverFiles on a folder the repository ignores', () => {
  it('scans a named ignored folder (its own .gitignore files still apply)', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, '.git'));
    writeTree(root, {
      '.gitignore': 'vendor/\n',
      'vendor/lib/a.ts': src,
      'vendor/lib/.gitignore': 'b.ts\n',
      'vendor/lib/b.ts': src,
      'src/c.ts': src,
    });
    expect(rel(root, (await discoverFiles({ cwd: root })).files)).toEqual(['src/c.ts']);
    expect(rel(root, (await discoverFiles({ cwd: root, paths: ['vendor'] })).files)).toEqual(['vendor/lib/a.ts']);
  });
});
