/**
 * Random project trees for the interruption tests: files that port rewrites (UTF-8, BOM + CRLF,
 * UTF-16 LE/BE), files it must leave alone (Latin-1 bytes, read-only, nothing to port), hard links and
 * named symlinks. A tree is built from a plain spec, so the same tree can be built twice: once to be
 * interrupted, once as the oracle of what an uninterrupted run makes of it.
 */
import { chmodSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import fc from 'fast-check';

export type FileKind = 'utf8' | 'bom-crlf' | 'utf16le' | 'utf16be' | 'latin1' | 'readonly' | 'plain' | 'hardlinked' | 'named-symlink';

export const FILE_KINDS: readonly FileKind[] = ['utf8', 'bom-crlf', 'utf16le', 'utf16be', 'latin1', 'readonly', 'plain', 'hardlinked', 'named-symlink'];

export interface TreeSpec {
  files: { kind: FileKind; dir: 'src' | 'src/tools' }[];
}

export const treeSpecs: fc.Arbitrary<TreeSpec> = fc.record({
  files: fc.array(fc.record({ kind: fc.constantFrom(...FILE_KINDS), dir: fc.constantFrom<'src' | 'src/tools'>('src', 'src/tools') }), { minLength: 1, maxLength: 8 }),
});

const tool = (i: number, eol = '\n') =>
  [`export async function handler${i}(ctx: any) {`, `  const a = await ctx.mcpReq.elicitInput({ message: 'question ${i} é 👍' });`, `  return a;`, `}`, ``].join(eol);

const utf16 = (text: string, be: boolean) => (be ? Buffer.from(text, 'utf16le').swap16() : Buffer.from(text, 'utf16le'));

/** Builds the tree under `root`; returns the paths to name on the command line. */
export function buildTree(root: string, spec: TreeSpec): string[] {
  const paths = ['.'];
  mkdirSync(join(root, 'src/tools'), { recursive: true });
  mkdirSync(join(root, 'shared'), { recursive: true });
  writeFileSync(join(root, 'package.json'), '{ "name": "tree", "type": "module" }\n');
  spec.files.forEach(({ kind, dir }, i) => {
    const file = join(root, dir, `f${i}.ts`);
    switch (kind) {
      case 'utf8':
        return writeFileSync(file, tool(i));
      case 'bom-crlf':
        return writeFileSync(file, '\uFEFF' + tool(i, '\r\n'));
      case 'utf16le':
      case 'utf16be':
        return writeFileSync(file, utf16('\uFEFF' + tool(i), kind === 'utf16be'));
      case 'latin1':
        return writeFileSync(file, Buffer.concat([Buffer.from(tool(i)), Buffer.from('// caf\xe9\n', 'latin1')]));
      case 'readonly':
        writeFileSync(file, tool(i));
        return chmodSync(file, 0o444);
      case 'plain':
        return writeFileSync(file, `export const plain${i} = 'nothing to port';\n`);
      case 'hardlinked':
        writeFileSync(file, tool(i));
        // a second name outside the scanned source folder: both names must see the port
        return linkSync(file, join(root, 'shared', `f${i}.ts`));
      case 'named-symlink': {
        const target = join(root, 'shared', `target${i}.ts`);
        writeFileSync(target, tool(i));
        symlinkSync(relative(dirname(file), target), file);
        paths.push(relative(root, file).split(sep).join('/'));
        return;
      }
    }
  });
  return paths;
}

export interface Entry {
  type: 'file' | 'symlink';
  /** File bytes as hex, or the link's target. */
  content: string;
  mode: number;
  nlink: number;
}

/** Every entry under `root` (symlinks not followed), by relative path. */
export function treeState(root: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const st = lstatSync(full);
      const rel = relative(root, full).split(sep).join('/');
      if (st.isDirectory()) walk(full);
      else if (st.isSymbolicLink()) out.set(rel, { type: 'symlink', content: readlinkSync(full), mode: 0, nlink: 1 });
      else out.set(rel, { type: 'file', content: readFileSync(full).toString('hex'), mode: st.mode & 0o7777, nlink: st.nlink });
    }
  };
  walk(root);
  return out;
}
