// The file `port` writes is the file tested here, byte for byte, and it type-checks in a user's project.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { CONTINUATION_FILE_NAME, continuationTemplate } from '../../src/runtime/template.js';

const RUNTIME_DIR = new URL('../../src/runtime/', import.meta.url);

describe('continuationTemplate', () => {
  it('is byte-identical to the tested module', () => {
    const onDisk = readFileSync(new URL('mrtr-continuation.ts', RUNTIME_DIR));
    expect(Buffer.from(continuationTemplate(), 'utf8').equals(onDisk)).toBe(true);
    expect(CONTINUATION_FILE_NAME).toBe('mrtr-continuation.ts');
  });

  it('is self-contained: no imports, no node: modules, no ambient process', () => {
    const source = continuationTemplate();
    expect(source).not.toMatch(/^\s*import\s/m);
    expect(source).not.toMatch(/\brequire\(/);
    expect(source).not.toMatch(/['"]node:/);
    expect(source).not.toMatch(/(?<![.?\w])process\s*\.\s*env/); // only through a guarded globalThis lookup
  });

  it('rejects an unknown codec', () => {
    expect(() => continuationTemplate('hmac' as never)).toThrow(/unknown codec/);
  });
});

// A user's handler as the transform writes it, against the real server package.
const USER_SERVER = `
import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { assertContinuationConfigured, bindRequest, claimOnce, continuation, elicitationAnswer, requestStateVerifier, rootsFromConfig, stateClaimKey } from './mrtr-continuation.js';

assertContinuationConfigured();
const schema = { type: 'object' as const, properties: { confirm: { type: 'boolean' as const } }, required: ['confirm'] };
export const server = new McpServer({ name: 'shop', version: '1.0.0' }, { requestState: { verify: requestStateVerifier() } });
server.registerTool('refund', { inputSchema: z.object({ orderId: z.string(), amount: z.number() }) },
  async ({ orderId, amount }, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const bind = bindRequest(ctx, 'refund', { orderId, amount });
    const state = await continuation.open<{ step: 'confirm' } | { step: 'amount'; confirm: Record<string, unknown> }>(ctx, bind);
    const answer = elicitationAnswer(ctx.mcpReq.inputResponses, 'confirm', schema);
    if (state?.step !== 'confirm' || answer === undefined) {
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicit({ message: 'Refund?', requestedSchema: schema }) },
        requestState: await continuation.seal(ctx, { step: 'confirm', bind }),
      });
    }
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: answer.action }] };
    const key = await stateClaimKey(ctx);
    if (key !== undefined && !(await claimOnce(key))) return { content: [{ type: 'text', text: 'already done' }] };
    const roots: { uri: string; name?: string }[] = rootsFromConfig().roots;
    return { content: [{ type: 'text', text: String(answer.content.confirm) + roots.length }] };
  });
`;

const BASE: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
};

describe('the user file type-checks in a user project', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mrtr-user-'));
    symlinkSync(new URL('../../node_modules', import.meta.url).pathname, join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(dir, CONTINUATION_FILE_NAME), continuationTemplate());
    writeFileSync(join(dir, 'server.ts'), USER_SERVER);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function diagnostics(options: ts.CompilerOptions, files: string[]): string[] {
    const program = ts.createProgram(files.map((f) => join(dir, f)), { ...BASE, ...options });
    return ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName.split('/').pop() ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  }

  it.each<[string, ts.CompilerOptions]>([
    ['lib ES2022 + DOM, no Node types', { lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] }],
    ['lib ES2022, types node', { lib: ['lib.es2022.d.ts'], types: ['node'] }],
    [
      'strictest extras (noUncheckedIndexedAccess, exactOptionalPropertyTypes, noPropertyAccessFromIndexSignature)',
      {
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
        types: [],
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        noPropertyAccessFromIndexSignature: true,
        noImplicitOverride: true,
        noImplicitReturns: true,
        verbatimModuleSyntax: true,
      },
    ],
  ])('the helper alone: %s', (_label, options) => {
    expect(diagnostics(options, [CONTINUATION_FILE_NAME])).toEqual([]);
  });

  it('a ported handler using every export, against @modelcontextprotocol/server 2.4 (types node)', () => {
    expect(diagnostics({ lib: ['lib.es2022.d.ts'], types: ['node'] }, ['server.ts'])).toEqual([]);
  });
});
