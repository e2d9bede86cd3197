/** analyze/check through the programmatic API, with the real analyzer, on temp copies of the example projects. */
import { appendFileSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAnalyze, runCheck, SYMLINK_SKIP_REASON, UsageError, type JsonReport } from '../../src/index.js';
import { copyProject, tempDir, writeTree } from './helpers.js';

describe('runAnalyze / runCheck on the example projects', () => {
  it('notes-v2: finds every site with the documented verdicts; analyze exits 0, check exits 1', async () => {
    const dir = copyProject('notes-v2');
    const analyzed = await runAnalyze({ cwd: dir, format: 'json' });
    expect(analyzed.exitCode).toBe(0);
    const report = JSON.parse(analyzed.output) as JsonReport;
    expect(report.tool).toBe('mrtr-port');
    expect(report.version).toBe(1);
    expect(report.files.scanned).toBe(4);
    expect(report.markers).toEqual([]);
    expect(report.sites.map((s) => `${s.file}:${s.line} ${s.kind}/${s.form}/${s.portability}${s.reasons.length ? `(${s.reasons.join(',')})` : ''}`)).toEqual([
      'src/confirm.ts:8 elicitation/elicitInput/auto',
      'src/server.ts:63 sampling/requestSampling/auto',
      'src/server.ts:77 roots/listRoots/auto',
      'src/server.ts:92 elicitation/elicitInput/auto',
      'src/server.ts:104 elicitation/elicitInput/auto',
      'src/server.ts:126 elicitation/elicitInput/auto(in-loop)',
      'src/server.ts:156 elicitation/elicitInput/guarded(era-guarded)',
      'src/server.ts:175 elicitation/elicitInput/auto',
      'src/server.ts:200 roots/listRoots/unportable(notification-handler)',
    ]);
    expect(report.summary).toEqual({ sites: 9, auto: 7, manual: 0, unportable: 1, guarded: 1 });

    const checked = await runCheck({ cwd: dir });
    expect(checked.exitCode).toBe(1);
    expect(checked.output).toContain('check failed: 8 legacy sites to port.');
  });

  it('notes-v1: SDK v1 forms are found and attributed', async () => {
    const dir = copyProject('notes-v1');
    const { report, exitCode } = await runCheck({ cwd: dir });
    expect(exitCode).toBe(1);
    expect(report.sites.map((s) => `${s.file}:${s.line} ${s.form} ${s.sdk} ${s.handler?.kind ?? '-'}`)).toEqual([
      'src/admin.ts:18 request v1 tool',
      'src/server.ts:22 sendRequest v1 tool',
      'src/server.ts:46 createMessage v1 tool',
      'src/server.ts:55 listRoots v1 tool',
      'src/server.ts:64 elicitInput v1 prompt',
    ]);
  });

  it('clean: check exits 0 and says so', async () => {
    const dir = copyProject('clean');
    const { exitCode, output, report } = await runCheck({ cwd: dir });
    expect(report.summary.sites).toBe(0);
    expect(exitCode).toBe(0);
    expect(output).toContain('check passed');
  });

  it('a guarded site alone does not fail check', async () => {
    const dir = tempDir();
    writeTree(dir, {
      'server.ts': [
        "import { inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server';",
        "const question = { message: 'Go?', requestedSchema: { type: 'object' as const, properties: {} } };",
        'export function register(server: McpServer) {',
        "  server.registerTool('go', { description: 'go' }, async (ctx) => {",
        '    if (ctx.mcpReq.envelope === undefined) {',
        '      const legacy = await ctx.mcpReq.elicitInput(question);',
        "      return { content: [{ type: 'text', text: legacy.action }] };",
        '    }',
        "    const answer = inputResponse(ctx.mcpReq.inputResponses, 'go');",
        "    if (answer.kind !== 'elicit') return inputRequired({ inputRequests: { go: inputRequired.elicit(question) } });",
        "    return { content: [{ type: 'text', text: answer.action }] };",
        '  });',
        '}',
        '',
      ].join('\n'),
    });
    const { report, exitCode } = await runCheck({ cwd: dir });
    expect(report.sites.map((s) => `${s.line} ${s.portability}`)).toEqual(['6 guarded']);
    expect(exitCode).toBe(0);
  });
});

describe('markers', () => {
  it('an unacknowledged @mrtr-port-todo fails check; @mrtr-port-ignore on the line above acknowledges it', async () => {
    const dir = copyProject('clean');
    const file = path.join(dir, 'src/main.ts');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace("serveStdio(", "/* @mrtr-port-todo(in-loop): ask for every tag in one form */\nserveStdio("));
    const failing = await runCheck({ cwd: dir, format: 'json' });
    expect(failing.exitCode).toBe(1);
    const line = original.split('\n').findIndex((l) => l.startsWith('serveStdio(')) + 1;
    expect((JSON.parse(failing.output) as JsonReport).markers).toEqual([
      { file: 'src/main.ts', line, column: 1, reason: 'in-loop', message: 'ask for every tag in one form' },
    ]);
    expect((await runAnalyze({ cwd: dir })).exitCode).toBe(0);

    writeFileSync(file, original.replace("serveStdio(", "// @mrtr-port-ignore tags are asked one by one on purpose\n/* @mrtr-port-todo(in-loop): ask for every tag in one form */\nserveStdio("));
    const acknowledged = await runCheck({ cwd: dir });
    expect(acknowledged.exitCode).toBe(0);
    expect(acknowledged.markers).toEqual([]);
    expect(acknowledged.acknowledgedMarkers).toBe(1);
    expect(acknowledged.output).toContain('0 markers left (1 acknowledged)');
  });

  it('a marker left by the official v1→v2 codemod fails check too', async () => {
    const dir = copyProject('clean');
    appendFileSync(path.join(dir, 'src/main.ts'), '/* @mcp-codemod-error The context object is forwarded to confirm(…) */\n');
    const { exitCode, markers } = await runCheck({ cwd: dir });
    expect(exitCode).toBe(1);
    expect(markers.map((m) => m.reason)).toEqual(['mcp-codemod-error']);
  });
});

describe('discovery and robustness', () => {
  it('lists a file with a syntax error with its error and goes on with the rest', async () => {
    const dir = copyProject('notes-v2');
    writeFileSync(path.join(dir, 'src/broken.ts'), "export async function f(ctx: any) {\n  await ctx.mcpReq.elicitInput({ message: 'x' ;\n}\n");
    const analyzed = await runAnalyze({ cwd: dir });
    expect(analyzed.exitCode).toBe(0);
    const skipped = analyzed.report.files.skipped.find((s) => s.file === 'src/broken.ts');
    expect(skipped?.reason).toMatch(/^parse-error: .+\(\d+:\d+\)$/);
    expect(analyzed.report.summary.sites).toBe(9);
    expect(analyzed.output).toMatch(/Skipped 1 file:\n {2}src\/broken\.ts: parse-error: /);

    const clean = copyProject('clean');
    writeFileSync(path.join(clean, 'src/broken.ts'), "const q = await ctx.mcpReq.elicitInput({ message: 'x' ;\n");
    const checked = await runCheck({ cwd: clean });
    expect(checked.exitCode).toBe(1);
    expect(checked.output).toContain('1 file that could not be parsed');
  });

  it('skips node_modules, build output, *.d.ts, gitignored and --ignore files; lists symlinks without following them', async () => {
    const dir = copyProject('clean');
    const legacy = "export async function ask(ctx: any) { return await ctx.mcpReq.elicitInput({ message: 'x', requestedSchema: { type: 'object', properties: {} } }); }\n";
    const outside = tempDir();
    writeTree(outside, { 'legacy.ts': legacy });
    writeTree(dir, {
      'node_modules/dep/index.ts': legacy,
      'dist/server.js': legacy,
      'build/server.js': legacy,
      'coverage/x.js': legacy,
      'src/types.d.ts': legacy,
      '.gitignore': 'generated/\n',
      'generated/legacy.ts': legacy,
      'src/vendor/legacy.ts': legacy,
    });
    symlinkSync(path.join(outside, 'legacy.ts'), path.join(dir, 'src/linked.ts'));
    const { exitCode, report } = await runCheck({ cwd: dir, ignore: ['src/vendor/'] });
    expect(report.sites).toEqual([]);
    expect(report.files.scanned).toBe(2);
    expect(report.files.skipped).toEqual([{ file: 'src/linked.ts', reason: SYMLINK_SKIP_REASON }]);
    expect(exitCode).toBe(0);

    // the same tree without the --ignore: the vendored legacy file is found
    const again = await runCheck({ cwd: dir });
    expect(again.report.sites.map((s) => s.file)).toEqual(['src/vendor/legacy.ts']);
    expect(again.exitCode).toBe(1);
  });

  it('rejects a missing path, a path with no sources and an unknown format with a UsageError (exit 2)', async () => {
    const dir = copyProject('clean');
    writeTree(dir, { 'docs/readme.md': '# docs' });
    await expect(runCheck({ cwd: dir, paths: ['src', 'missing'] })).rejects.toThrow(/no such file or directory: missing/);
    await expect(runAnalyze({ cwd: dir, paths: ['docs'] })).rejects.toThrow(/no source files .* in: docs/);
    const error = await runAnalyze({ cwd: dir, format: 'xml' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
  });

  it('reports paths relative to cwd even when scanning a subfolder or a file', async () => {
    const dir = copyProject('notes-v2');
    const { report } = await runAnalyze({ cwd: path.dirname(dir), paths: [path.join(dir, 'src/confirm.ts'), 'notes-v2/src/store.ts'] });
    expect(report.files.scanned).toBe(2);
    expect(report.sites.map((s) => s.file)).toEqual(['notes-v2/src/confirm.ts']);
  });
});
