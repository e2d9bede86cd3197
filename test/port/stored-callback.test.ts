/**
 * A closure over the server kept by a setter and called later (fixtures/analyzer/stored-callback): one
 * stored in a module `let` (`useSampler(fn)`), one in a class field (`reviewer.setAsker(fn)`). The tools
 * await the helpers that call what was stored, so both asks are auto, and the port rewrites them where
 * they stand and wraps the tools/call handler.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';
import { applyPortSource, defaultContinuationImport } from '../../transforms/index.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const dir = join(root, 'fixtures/analyzer/stored-callback');
const files = readdirSync(dir).sort().map((f) => join(dir, f));

describe('a callback kept by a setter', () => {
  const texts = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
  const { report, plans } = analyze({ cwd: root, files, texts, plan: { roots: 'config' } });

  it('is reached from the tools that await what was stored', () => {
    expect(report.sites.map((s) => `${s.line} ${s.portability} ${s.handler?.kind}:${s.via.map((v) => v.function).join('<')}`)).toEqual([
      '16 auto tool:draftAndTitle<complete<sampleWith',
      '25 auto tool:Reviewer.approve<ask',
    ]);
  });

  it('is ported where it stands', () => {
    const server = files.find((f) => f.endsWith('server.ts'))!;
    const plan = plans.find((p) => p.file === relative(root, server)) ?? null;
    const source = texts.get(server)!;
    const out = applyPortSource({ source, path: server, plan, options: { codec: 'aead', roots: 'config', continuationImport: defaultContinuationImport(source) } });
    expect(out).not.toMatch(/s\.request\(|s\.elicitInput\(/);
    expect(out).toContain("await inputRequest({ method: 'sampling/createMessage'");
    expect(out).toContain('await elicit({ message: question');
    expect(out).toContain('server.setRequestHandler(CallToolRequestSchema, resumable(undefined, async (request) => {');
  });
});

describe('a kept callback called from modules that name no legacy method, dispatched through a table and an AsyncLocalStorage context', () => {
  const dispatch = join(root, 'fixtures/analyzer/stored-callback-dispatch');
  const all = readdirSync(dispatch).sort().map((f) => join(dispatch, f));
  const texts = new Map(all.map((f) => [f, readFileSync(f, 'utf8')]));
  const { report, plans } = analyze({ cwd: root, files: all, texts, plan: { roots: 'config' } });

  it('is auto, reached through the table entry the dispatcher finds', () => {
    expect(report.sites.map((s) => `${s.line} ${s.portability} ${s.handler?.kind}:${s.via.map((v) => v.function).join('<')}`)).toEqual(['18 auto tool:outlineHandler<complete<fn']);
  });

  it('is ported where it stands, the dispatcher wrapped', () => {
    const server = all.find((f) => f.endsWith('server.ts'))!;
    const plan = plans.find((p) => p.file === relative(root, server)) ?? null;
    const source = texts.get(server)!;
    const out = applyPortSource({ source, path: server, plan, options: { codec: 'aead', roots: 'config', continuationImport: defaultContinuationImport(source) } });
    expect(out).not.toContain('server.request(');
    expect(out).toContain("await inputRequest({ method: 'sampling/createMessage'");
    expect(out).toContain('server.setRequestHandler(CallToolRequestSchema, resumable(undefined, async (request) => {');
    expect(out).toContain('await requestServer.run(server, () => tool.handler(request.params.arguments ?? {}));');
  });
});
