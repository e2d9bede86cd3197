/**
 * Start-up cost: `--help`, `--version` and a run with no file to parse must not load the compiler,
 * ts-morph, jscodeshift/Babel or the official codemod (issue 13). Each case spawns the CLI, compiled to
 * JS as the published dist is (test/global-setup.ts), with a preload that records every module the
 * process loaded; a run that does parse is the control that shows the recording sees the compiler when
 * it is loaded.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledScript } from '../compiled.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const recorder = pathToFileURL(join(repoRoot, 'test/perf/record-loads.mjs')).href;
const HEAVY = ['typescript', 'ts-morph', '@ts-morph/common', 'jscodeshift', '@babel/parser', 'recast', '@modelcontextprotocol/codemod'];

const work = mkdtempSync(join(tmpdir(), 'mrtr-startup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let runs = 0;

/** Runs the CLI in `cwd`; returns its exit code and the heavy packages it loaded. */
function run(cwd: string, ...args: string[]): { status: number | null; stderr: string; heavy: string[] } {
  const log = join(work, `loads-${++runs}.log`);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', recorder, compiledScript('src/cli/main.ts'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', MRTR_LOAD_LOG: log },
  });
  const heavy = new Set<string>();
  for (const path of readFileSync(log, 'utf8').split('\n')) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
    if (pkg && HEAVY.includes(pkg)) heavy.add(pkg);
  }
  return { status: r.status, stderr: r.stderr, heavy: [...heavy].sort() };
}

describe('start-up loads nothing heavy', () => {
  const plain = join(work, 'plain');
  const legacy = join(work, 'legacy');
  for (const [dir, text] of [
    [plain, "export const add = (a: number, b: number): number => a + b;\n"],
    [legacy, "import { McpServer } from '@modelcontextprotocol/server';\nexport function register(server: McpServer) {\n  server.registerTool('t', {}, async (_args, ctx) => {\n    const answer = await ctx.mcpReq.elicitInput({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } });\n    return { content: [{ type: 'text', text: answer.action }] };\n  });\n}\n"],
  ] as const) {
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src/index.ts'), text);
  }

  it.each(['--version', '--help', 'analyze --help'])('mrtr-port %s', (args) => {
    const r = run(work, ...args.split(' '));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.heavy).toEqual([]);
  }, 60_000);

  // port: the transforms load Babel on their first parse, so a run with nothing to transform never does
  it.each(['analyze .', 'check .', 'port --dry-run .'])('mrtr-port %s on a tree with no legacy call', (args) => {
    const r = run(plain, ...args.split(' '));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.heavy).toEqual([]);
  }, 60_000);

  // the port engine plans and edits with the compiler's tree (no Babel parse), so the compiler is the control
  it('control: port --dry-run on a tree with a legacy call loads the compiler', () => {
    const r = run(legacy, 'port', '--dry-run', '.');
    expect(r.heavy).toEqual(expect.arrayContaining(['typescript']));
  }, 60_000);

  it('control: analyze on a tree with a legacy call loads the compiler (the recording sees it)', () => {
    const r = run(legacy, 'analyze', '.');
    expect(r.status).toBe(0);
    expect(r.heavy).toContain('typescript');
  }, 60_000);
});

describe('the tool and its tests load the compiler only through src/typescript.cjs', () => {
  // a test file's ESM import made its worker scan the compiler's bundle too
  it('no module of src/, transforms/, rules/ or test/ imports typescript as a value (type-only imports cost nothing)', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const abs = join(dir, entry.name);
        if (entry.isDirectory()) walk(abs);
        else if (/\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.cts')) {
          const text = readFileSync(abs, 'utf8');
          if (/^import\s+(?!type\b)[^;]*from\s+['"]typescript['"]/m.test(text)) offenders.push(relative(repoRoot, abs));
        }
      }
    };
    for (const dir of ['src', 'transforms', 'rules', 'test']) walk(join(repoRoot, dir));
    expect(offenders, "load the compiler with `import ts from '<relative path>/typescript.cjs'` (see docs/performance.md, Start-up)").toEqual([]);
  });
});
