/**
 * The packed tarball works as users install it: `npm pack` (which runs the `prepack` build), install the
 * tarball with ESLint and the TypeScript parser into a fresh project, and lint a small legacy server
 * with `mrtr.configs.recommended` from a flat `eslint.config.js` importing `mrtr-port/eslint-plugin`.
 * Slow (a build and an install from the npm cache), so it is one test.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'mrtr-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ESLINT_CONFIG = `import mrtr from 'mrtr-port/eslint-plugin';
import tsParser from '@typescript-eslint/parser';

export default [
  { files: ['**/*.ts'], languageOptions: { parser: tsParser } },
  mrtr.configs.recommended,
];
`;

// Each flagged line carries the rule id it must trip; nothing else may be reported.
const SERVER = `import { McpServer, inputRequired } from '@modelcontextprotocol/server';

const server = new McpServer({ name: 'pack-check', version: '1.0.0' });
const calls: string[] = [];
const schema = { type: 'object' as const, properties: {} };

server.registerTool('legacy', {}, async (ctx) => {
  const answer = await ctx.mcpReq.elicitInput({ message: 'Go?', requestedSchema: schema }); // no-legacy-server-requests
  return { content: [{ type: 'text', text: answer.action }] };
});

server.registerTool('eager', {}, async (ctx) => {
  calls.push('eager'); // no-side-effects-before-last-answer
  if (!ctx.mcpReq.inputResponses) {
    return inputRequired({
      inputRequests: { go: inputRequired.elicit({ message: 'Go?', requestedSchema: schema }) },
      requestState: 'step-1', // no-unsigned-request-state
    });
  }
  return { content: [{ type: 'text', text: 'done' }] };
});

server.server.setRequestHandler('tools/list', async () => {
  return inputRequired({ inputRequests: { go: inputRequired.elicit({ message: 'Go?', requestedSchema: schema }) } }); // no-input-required-outside-eligible-handlers
});
`;

describe('packed eslint plugin', () => {
  it('installs from the tarball and reports a legacy server under configs.recommended', () => {
    const packs = join(work, 'packs');
    mkdirSync(packs);
    execFileSync('npm', ['pack', '--pack-destination', packs, '--silent'], { cwd: root, stdio: 'pipe' });
    const tarball = readdirSync(packs).find((f) => f.endsWith('.tgz'));
    expect(tarball, 'npm pack wrote a tarball').toBeDefined();

    const project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'pack-check', private: true, type: 'module' }));
    execFileSync(
      'npm',
      ['i', '--no-audit', '--no-fund', '--prefer-offline', join(packs, tarball as string), 'eslint@9.39.5', '@typescript-eslint/parser@8.72.0'],
      { cwd: project, stdio: 'pipe' },
    );
    writeFileSync(join(project, 'eslint.config.js'), ESLINT_CONFIG);
    writeFileSync(join(project, 'server.ts'), SERVER);

    const run = spawnSync(process.execPath, [join(project, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--format', 'json', 'server.ts'], {
      cwd: project,
      encoding: 'utf8',
    });
    // ESLint exits 1 when it reports errors; 2 would be a crash or a config that does not load.
    expect(run.status, run.stderr).toBe(1);
    const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; line: number; message: string }[] }[];
    const reported = result.messages.map((m) => `${m.ruleId ?? `fatal: ${m.message}`}@${m.line}`);
    expect(reported).toEqual(expectedFromComments(SERVER));
  }, 600_000);
});

/** `// <rule-id>` at the end of a line means that rule reports on that line (mrtr namespace). */
function expectedFromComments(code: string): string[] {
  return code.split('\n').flatMap((line, i) => {
    const match = /\/\/ ([a-z-]+)$/.exec(line);
    return match ? [`mrtr/${match[1]}@${i + 1}`] : [];
  });
}
