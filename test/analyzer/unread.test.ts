/**
 * Nothing unread passes: a file the analyzer cannot read or decode is listed as skipped with why, and
 * `check` fails while one remains; UTF-16 announced by a byte-order mark is decoded and analyzed, with
 * positions in UTF-16 code units of the decoded text.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';
import { readSource } from '../../src/analyzer/source.js';
import { checkFails, runCheck } from '../../src/cli/run.js';
import { collectFindings, UNREAD_FILE_RULE } from '../../src/cli/reporters/findings.js';
import type { AnalysisReport } from '../../src/analyzer/model.js';
import { tempDir } from '../cli/helpers.js';

const SERVER = [
  `import { McpServer } from '@modelcontextprotocol/server';`,
  `const server = new McpServer({ name: 'é', version: '1' });`,
  `server.registerTool('ask', {}, async (ctx) => {`,
  `  const a = await ctx.mcpReq.elicitInput({ message: 'Ça va ?', requestedSchema: { type: 'object', properties: {} } });`,
  `  return { content: [{ type: 'text', text: a.action }] };`,
  `});`,
].join('\n');

function utf16(text: string, endian: 'le' | 'be', bom: boolean): Buffer {
  const le = Buffer.from((bom ? '\uFEFF' : '') + text, 'utf16le');
  return endian === 'le' ? le : le.swap16();
}

function tree(files: Record<string, Buffer | string>): { dir: string; paths: string[] } {
  const dir = tempDir('mrtr-unread-');
  const paths: string[] = [];
  for (const [rel, content] of Object.entries(files)) {
    writeFileSync(join(dir, rel), content);
    paths.push(join(dir, rel));
  }
  return { dir, paths };
}

describe('files the analyzer cannot read or decode', () => {
  it('decodes UTF-16 LE and BE with a byte-order mark and finds their sites at the same positions as UTF-8', () => {
    const { dir, paths } = tree({ 'utf8.ts': SERVER, 'le.ts': utf16(SERVER, 'le', true), 'be.ts': utf16(SERVER, 'be', true) });
    const { report } = analyze({ cwd: dir, files: paths });
    expect(report.files.skipped).toEqual([]);
    expect(report.sites.map((s) => `${s.file}:${s.line}:${s.column} ${s.portability}`)).toEqual(['be.ts:4:19 auto', 'le.ts:4:19 auto', 'utf8.ts:4:19 auto']);
  });

  it('lists UTF-16 without a mark, a binary file named .ts, invalid UTF-8 and a folder named .ts as skipped, with why', () => {
    const { dir, paths } = tree({
      'nobom.ts': utf16(SERVER, 'le', false),
      'blob.ts': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x02]),
      'latin1.ts': Buffer.from(`// caf\xe9\n${SERVER}`, 'latin1'),
    });
    mkdirSync(join(dir, 'folder.ts'));
    const { report } = analyze({ cwd: dir, files: [...paths, join(dir, 'folder.ts')] });
    expect(report.sites).toEqual([]);
    expect(report.files.skipped.map((s) => [s.file, s.reason.split(':')[0]])).toEqual([
      ['blob.ts', 'encoding'],
      ['folder.ts', 'read-error'],
      ['latin1.ts', 'encoding'],
      ['nobom.ts', 'encoding'],
    ]);
    expect(report.files.skipped.find((s) => s.file === 'folder.ts')?.reason).toBe('read-error: EISDIR');
    expect(report.files.skipped.find((s) => s.file === 'nobom.ts')?.reason).toMatch(/NUL bytes.*byte-order mark/);
  });

  it('check exits 1 while an unread file remains, even with no site anywhere; it says which file and why', async () => {
    const { dir } = tree({ 'clean.ts': 'export const x = 1;\n', 'nobom.ts': utf16(SERVER, 'le', false) });
    const failing = await runCheck({ cwd: dir, format: 'json' });
    expect(failing.exitCode).toBe(1);
    expect(failing.report.sites).toEqual([]);
    expect(failing.output).toContain('nobom.ts');
    expect((await runCheck({ cwd: dir })).output).toContain('check failed: 1 file that could not be read or decoded.');
    const { dir: clean } = tree({ 'clean.ts': 'export const x = 1;\n' });
    expect((await runCheck({ cwd: clean })).exitCode).toBe(0);
  });

  it('reads a UTF-8 mark as U+FEFF, as a utf8 read does, and refuses what is not valid in its encoding', () => {
    const { paths } = tree({ 'bom.ts': Buffer.from('\uFEFFconst a = 1;', 'utf8'), 'odd.ts': Buffer.from([0xff, 0xfe, 0x41]) });
    expect(readSource(paths[0])).toEqual({ ok: true, text: '\uFEFFconst a = 1;' });
    expect(readSource(paths[1])).toEqual({ ok: false, reason: 'encoding: not valid UTF-16LE: odd number of bytes' });
  });

  it('a folder discovery could not list fails check and is a finding naming it; a symlink not followed is neither', () => {
    const report = (reason: string): AnalysisReport => ({
      tool: 'mrtr-port',
      version: 1,
      files: { scanned: 1, skipped: [{ file: 'src/locked', reason }] },
      sites: [],
      summary: { sites: 0, auto: 0, manual: 0, unportable: 0, guarded: 0 },
    });
    const context = { command: 'check' as const, cwd: '/x', markers: [], acknowledgedMarkers: 0, exitCode: 1, toolVersion: '0' };
    const locked = report('read-error: EACCES (folder not listed)');
    expect(checkFails(locked, [])).toBe(true);
    expect(collectFindings(locked, context).map((f) => [f.file, f.ruleId, f.level])).toEqual([['src/locked', UNREAD_FILE_RULE, 'error']]);
    const link = report('symlink-not-followed');
    expect(checkFails(link, [])).toBe(false);
    expect(collectFindings(link, context)).toEqual([]);
  });
});
