/**
 * Issue 10, cases 1 and 2: the runner never overwrites an edit made while it runs, and never alters a
 * byte it did not mean to (encodings). Stand-in analyzer and transform (fakes.ts); real reads and writes.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { portExitCode, runPort, type RunPortOptions } from '../../src/port/index.js';
import { FAKE_TEMPLATE, fakeDependencies } from './fakes.js';
import { removeDir } from './helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mrtr-port-bytes-'));
});
afterEach(() => removeDir(dir));

function put(rel: string, bytes: string | Buffer): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), bytes);
}
const bytesOf = (rel: string) => readFileSync(join(dir, rel));

const TOOL = `export async function handler(ctx: any) {\n  const answer = await ctx.mcpReq.elicitInput({ message: 'ok?' });\n  return answer;\n}\n`;
const PORTED_LINE = `  const answer = await askPorted({ message: 'ok?' });`;

const port = (extra: Partial<RunPortOptions> = {}) => runPort({ cwd: dir, paths: ['.'], dependencies: fakeDependencies(), ...extra });

describe('an edit made while port runs is never overwritten (changed-on-disk)', () => {
  it('a source changed between read and write (through the transform seam) is left with the edit, exit 1', async () => {
    put('src/a.ts', TOOL);
    put('src/b.ts', TOOL);
    const deps = fakeDependencies();
    const result = await port({
      dependencies: {
        ...deps,
        transform: (input) => {
          // the user saves a.ts while the run is between reading and writing it
          if (input.path.endsWith('a.ts')) writeFileSync(input.path, TOOL + '// my edit\n');
          return deps.transform(input);
        },
      },
    });
    expect(bytesOf('src/a.ts').toString()).toBe(TOOL + '// my edit\n');
    expect(result.files.find((f) => f.file === 'src/a.ts')).toMatchObject({ status: 'failed', error: expect.stringMatching(/^changed-on-disk: size changed/) });
    expect(bytesOf('src/b.ts').toString()).toContain(PORTED_LINE);
    expect(portExitCode(result)).toBe(1);
  });

  it('an edit in the last moment before the swap, of the same size, is caught by the content hash', async () => {
    put('src/a.ts', TOOL);
    const edited = TOOL.replace('ok?', 'OK?');
    const result = await port({ beforeSwap: (file) => file.endsWith('a.ts') && writeFileSync(file, edited) });
    expect(bytesOf('src/a.ts').toString()).toBe(edited);
    expect(result.files[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/^changed-on-disk: modified since it was read/) });
    // the helper was written before the source; nothing else is left behind
    expect(readdirSync(join(dir, 'src')).sort()).toEqual(['a.ts', 'mrtr-continuation.ts']);
  });

  it('a helper that appears during the run is not overwritten; its importers are kept as they were', async () => {
    put('src/a.ts', TOOL);
    const result = await port({ beforeSwap: (file) => file.endsWith('mrtr-continuation.ts') && writeFileSync(file, '// someone else\n') });
    expect(bytesOf('src/mrtr-continuation.ts').toString()).toBe('// someone else\n');
    expect(result.helpers[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/^changed-on-disk: created by someone else/) });
    expect(bytesOf('src/a.ts').toString()).toBe(TOOL);
    expect(portExitCode(result)).toBe(1);
  });

  it('a package.json changed before its update is left with the change', async () => {
    const v1 = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport const server = new McpServer({ name: 'x', version: '1' });\n`;
    put('package.json', '{ "name": "v1", "dependencies": { "@modelcontextprotocol/sdk": "1.32.2" } }\n');
    put('src/server.ts', v1);
    const mine = '{ "name": "v1", "dependencies": { "@modelcontextprotocol/sdk": "1.32.2", "left-pad": "1.3.0" } }\n';
    const result = await port({ beforeSwap: (file) => file.endsWith('package.json') && writeFileSync(file, mine) });
    expect(bytesOf('package.json').toString()).toBe(mine);
    expect(result.manifests[0]).toMatchObject({ file: 'package.json', status: 'failed', error: expect.stringMatching(/^changed-on-disk: /) });
    expect(portExitCode(result)).toBe(1);
  }, 60_000);
});

describe('bytes are kept: encodings', () => {
  it('a Latin-1 byte in a "UTF-8" file: skipped with the reason, not one byte changed, exit 1 (it names a legacy method)', async () => {
    const latin1 = Buffer.concat([Buffer.from(TOOL.replace('ok?', 'caf')), Buffer.from('// r'), Buffer.from([0xe9]), Buffer.from('sum\u00e9\n', 'latin1')]);
    put('src/a.ts', latin1);
    const result = await port();
    expect(bytesOf('src/a.ts').equals(latin1)).toBe(true);
    expect(result.files[0]).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^encoding: not valid UTF-8 \(byte \d+, line 5: e9 /), mayHoldSites: true });
    expect(result.summary.skippedBy).toEqual({ encoding: 1 });
    expect(portExitCode(result)).toBe(1);
  });

  it('a skipped file that names no legacy method does not fail the run', async () => {
    put('src/a.ts', Buffer.from([0x2f, 0x2f, 0x20, 0xe9, 0x0a]));
    const result = await port();
    expect(result.files[0]).toMatchObject({ status: 'skipped' });
    expect(result.files[0].mayHoldSites).toBeUndefined();
    expect(portExitCode(result)).toBe(0);
  });

  for (const encoding of ['utf-16le', 'utf-16be'] as const) {
    it(`a ${encoding.toUpperCase()} file with a BOM is ported and written back in ${encoding.toUpperCase()}, BOM and CRLF kept`, async () => {
      const encode = (text: string) => (encoding === 'utf-16le' ? Buffer.from(text, 'utf16le') : Buffer.from(text, 'utf16le').swap16());
      const original = '\uFEFF' + TOOL.replace('ok?', 'ça va ? 👍').replace(/\n/g, '\r\n');
      put('src/a.ts', encode(original));
      const dry = await port({ dryRun: true });
      expect(dry.files[0].diff).toContain(`# src/a.ts: ${encoding.toUpperCase()} file: shown decoded, written back in ${encoding.toUpperCase()}`);
      expect(dry.files[0].diff).toContain(`+  const answer = await askPorted({ message: 'ça va ? 👍' });`);
      const result = await port();
      expect(result.files[0]).toMatchObject({ status: 'changed' });
      const written = bytesOf('src/a.ts');
      const text = new TextDecoder(encoding, { ignoreBOM: true }).decode(written);
      expect(encode(text).equals(written)).toBe(true);
      expect(text.startsWith('\uFEFF')).toBe(true);
      expect(text).toContain(`await askPorted({ message: 'ça va ? 👍' });\r\n`);
      expect(text).not.toMatch(/[^\r]\n/);
      // the helper is the project's own (UTF-8) file
      expect(bytesOf('src/mrtr-continuation.ts').toString('utf8')).toBe(FAKE_TEMPLATE);
    });
  }

  it('the dry-run diff names the changes a diff line cannot show', async () => {
    put('src/a.ts', '\uFEFF' + TOOL);
    const deps = fakeDependencies();
    const result = await port({
      dryRun: true,
      // a transform that (wrongly) adds trailing white space on a line it did not port; framing puts the BOM back
      dependencies: { ...deps, transform: (input) => deps.transform(input).replace('return answer;', 'return answer;  ') },
    });
    const diff = result.files[0].diff!;
    // line 2 carries the byte-order mark no more (the new import line above it does)
    expect(diff).toMatch(/^# src\/a\.ts: only invisible characters \(line ending, trailing white space, zero-width\) change on new lines 2, 4\n--- a\/src\/a\.ts\n/);
  });
});

describe('the size limit', () => {
  it('skips a file above --max-file-size with the reason, unread by the stages, and exit 1 when it names a legacy method', async () => {
    put('src/big.ts', TOOL + '// padding\n'.repeat(100));
    put('src/small.ts', TOOL);
    const result = await port({ maxFileSize: 1024 });
    expect(result.files.find((f) => f.file === 'src/big.ts')).toMatchObject({
      status: 'skipped',
      reason: 'too-large: 1.2 KiB, over the --max-file-size limit of 1.0 KiB',
      mayHoldSites: true,
    });
    expect(bytesOf('src/big.ts').toString()).toBe(TOOL + '// padding\n'.repeat(100));
    expect(bytesOf('src/small.ts').toString()).toContain(PORTED_LINE);
    expect(result.summary.skippedBy).toEqual({ 'too-large': 1 });
    expect(portExitCode(result)).toBe(1);
  });
});
