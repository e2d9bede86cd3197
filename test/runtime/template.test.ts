// The file `port` writes is the file tested here, byte for byte, and it type-checks in a user's project.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from '../../src/typescript.cjs';
import { sharingCompilerHost } from '../perf/shared-source-files.js';
import { CONTINUATION_FILE_NAME, CONTINUATION_SOURCES, continuationTemplate } from '../../src/runtime/template.js';

const RUNTIME_DIR = new URL('../../src/runtime/', import.meta.url);

describe('continuationTemplate', () => {
  it('is byte-identical to the tested module, for each codec', () => {
    const aead = readFileSync(new URL('mrtr-continuation.ts', RUNTIME_DIR));
    const sdk = readFileSync(new URL('mrtr-continuation-sdk.ts', RUNTIME_DIR));
    expect(Buffer.from(continuationTemplate(), 'utf8').equals(aead)).toBe(true);
    expect(Buffer.from(continuationTemplate('aead'), 'utf8').equals(aead)).toBe(true);
    expect(Buffer.from(continuationTemplate('sdk'), 'utf8').equals(sdk)).toBe(true);
    expect(CONTINUATION_FILE_NAME).toBe('mrtr-continuation.ts');
    expect(CONTINUATION_SOURCES.sdk).toBe('mrtr-continuation-sdk.ts');
  });

  it('rejects an unknown codec', () => {
    expect(() => continuationTemplate('hmac' as never)).toThrow(/unknown codec "hmac"/);
    expect(() => continuationTemplate('toString' as never)).toThrow(/unknown codec/);
  });

  it('the SDK variant differs from the default only in its header and its codec region', () => {
    // Both files are real, tested modules; this keeps their shared code from drifting apart.
    const shared = (text: string): string => {
      const start = text.indexOf('// ---------------------------------------------------------------------------------------------------\n// Public API');
      const regionStart = text.indexOf('// #region codec');
      const regionEnd = text.indexOf('// #endregion codec');
      expect([start, regionStart, regionEnd].every((i) => i > 0) && start < regionStart && regionStart < regionEnd).toBe(true);
      return text.slice(start, regionStart) + text.slice(regionEnd);
    };
    expect(shared(continuationTemplate('sdk'))).toBe(shared(continuationTemplate('aead')));
  });

  it('the SDK variant imports nothing but @modelcontextprotocol/server', () => {
    const imports = continuationTemplate('sdk').match(/^import .* from '([^']+)';$/gm) ?? [];
    expect(imports).toEqual([`import { createRequestStateCodec } from '@modelcontextprotocol/server';`]);
  });

  it('is self-contained: no imports, no node: modules, no ambient process', () => {
    const source = continuationTemplate();
    expect(source).not.toMatch(/^\s*import\s/m);
    expect(source).not.toMatch(/\brequire\(/);
    expect(source).not.toMatch(/['"]node:/);
    expect(source).not.toMatch(/(?<![.?\w])process\s*\.\s*env/); // only through a guarded globalThis lookup
  });

  it('is found from the built package too (dist/src/runtime next to the shipped src/runtime)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-pkg-'));
    try {
      const built = join(dir, 'dist', 'src', 'runtime');
      const shipped = join(dir, 'src', 'runtime');
      mkdirSync(built, { recursive: true });
      mkdirSync(shipped, { recursive: true });
      writeFileSync(join(shipped, CONTINUATION_FILE_NAME), continuationTemplate());
      const output = ts.transpileModule(readFileSync(new URL('template.ts', RUNTIME_DIR), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      writeFileSync(join(built, 'template.js'), output);
      // template.js loads the compiler lazily through ../typescript.cjs, which `npm run build` copies next to it
      copyFileSync(new URL('../typescript.cjs', RUNTIME_DIR), join(dir, 'dist', 'src', 'typescript.cjs'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      const fromDist = (await import(pathToFileURL(join(built, 'template.js')).href)) as { continuationTemplate: () => string };
      expect(fromDist.continuationTemplate()).toBe(continuationTemplate());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// A user's handler as the transform writes it, against the real server package.
const USER_SERVER = `
import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { assertContinuationConfigured, bindRequest, claimOnce, continuation, defaultClaimStore, elicitationAnswer, requestStateVerifier, rootsFromConfig, type ClaimStore, type OpenedState } from './mrtr-continuation.js';

assertContinuationConfigured();
const schema = { type: 'object' as const, properties: { confirm: { type: 'boolean' as const } }, required: ['confirm'] };
export const server = new McpServer({ name: 'shop', version: '1.0.0' }, { requestState: { verify: requestStateVerifier() } });
server.registerTool('refund', { inputSchema: z.object({ orderId: z.string(), amount: z.number() }) },
  async ({ orderId, amount }, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const bind = bindRequest(ctx, 'refund', { orderId, amount });
    const opened: OpenedState<{ step: 'confirm' } | { step: 'amount'; confirm: Record<string, unknown> }> | undefined = await continuation.openState(ctx, bind);
    const state = opened?.payload;
    const answer = elicitationAnswer(ctx.mcpReq.inputResponses, 'confirm', schema);
    if (opened === undefined || state?.step !== 'confirm' || answer === undefined) {
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicit({ message: 'Refund?', requestedSchema: schema }) },
        requestState: await continuation.seal(ctx, { step: 'confirm', bind }),
      });
    }
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: answer.action }] };
    const store: ClaimStore = defaultClaimStore();
    if (!(await claimOnce(opened, { store }))) return { content: [{ type: 'text', text: 'already done' }] };
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
    writeFileSync(join(dir, 'mrtr-continuation-sdk.ts'), continuationTemplate('sdk'));
    writeFileSync(join(dir, 'server.ts'), USER_SERVER);
    writeFileSync(join(dir, 'server-sdk.ts'), USER_SERVER.replace("from './mrtr-continuation.js'", "from './mrtr-continuation-sdk.js'"));
    writeFileSync(join(dir, 'es2022-api.ts'), `export const own = Object.hasOwn({ a: 1 }, 'a');\nexport const wrapped = new Error('outer', { cause: 'inner' });\n`);
    for (const file of ['mrtr-flow.ts', 'mrtr-claims.ts', 'mrtr-claims-redis.ts']) writeFileSync(join(dir, file), readFileSync(new URL(file, RUNTIME_DIR), 'utf8'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function diagnostics(options: ts.CompilerOptions, files: string[]): string[] {
    const settings = { ...BASE, ...options };
    // the programs share their parsed lib, @types/node and package files
    const program = ts.createProgram(files.map((f) => join(dir, f)), settings, sharingCompilerHost(settings));
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

  // a package whose tsconfig says target/lib ES2020 (Node 14-era settings, still common) builds the helpers too
  const ES2020: ts.CompilerOptions = { target: ts.ScriptTarget.ES2020, lib: ['lib.es2020.d.ts'], types: ['node'] };
  it('every helper (flow, continuation, both claim stores) with target and lib ES2020, no DOM (types node)', () => {
    expect(diagnostics(ES2020, [CONTINUATION_FILE_NAME, 'mrtr-flow.ts', 'mrtr-claims.ts', 'mrtr-claims-redis.ts'])).toEqual([]);
    // the check sees ES2022 APIs (Object.hasOwn, an Error's cause; @types/node declares Array#at itself)
    expect(diagnostics(ES2020, ['es2022-api.ts'])).toEqual([
      expect.stringContaining("Property 'hasOwn' does not exist"),
      expect.stringContaining('Expected 0-1 arguments, but got 2'),
    ]);
  });

  // many servers build with `strict: false` (no strictNullChecks): narrowing differs there, and the helpers must still build
  it('every helper (flow, continuation, both claim stores) with strict false', () => {
    const loose: ts.CompilerOptions = { strict: false, lib: ['lib.es2022.d.ts'], types: ['node'] };
    expect(diagnostics(loose, [CONTINUATION_FILE_NAME, 'mrtr-flow.ts', 'mrtr-claims.ts', 'mrtr-claims-redis.ts'])).toEqual([]);
  });

  it('a ported handler using every export, against @modelcontextprotocol/server 2.4 (types node)', () => {
    expect(diagnostics({ lib: ['lib.es2022.d.ts'], types: ['node'] }, ['server.ts'])).toEqual([]);
  });

  it.each<[string, ts.CompilerOptions]>([
    ['types node', { lib: ['lib.es2022.d.ts'], types: ['node'] }],
    ['strictest extras', { lib: ['lib.es2022.d.ts'], types: ['node'], noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, noPropertyAccessFromIndexSignature: true, verbatimModuleSyntax: true }],
  ])('the claim store files (memory, and Redis against the real redis package): %s', (_label, options) => {
    expect(diagnostics(options, ['mrtr-claims.ts', 'mrtr-claims-redis.ts'])).toEqual([]);
  });

  it('the in-memory claim store file needs no Node types (lib ES2022 + DOM)', () => {
    expect(diagnostics({ lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] }, ['mrtr-claims.ts'])).toEqual([]);
  });

  it('the same handler on the SDK-codec variant, strictest options', () => {
    const strictest: ts.CompilerOptions = { lib: ['lib.es2022.d.ts'], types: ['node'], noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true };
    expect(diagnostics(strictest, ['server-sdk.ts', 'mrtr-continuation-sdk.ts'])).toEqual([]);
  });
});
