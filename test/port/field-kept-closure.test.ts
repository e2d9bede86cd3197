/**
 * A closure over the server kept in a field its class's constructor sets, and called by a method
 * (fixtures/analyzer/field-kept-closure): one made by a factory (`this.complete = completionFrom(server)`),
 * one written in the constructor (`this.confirm = async (…) => …`). The tools await those methods on
 * instances made at start-up, so both asks are auto (they were `manual(no-handler)`: the made function was
 * followed only into a `const`, and a function written as an assignment's value not at all), and the port
 * rewrites them where they stand and wraps the tools/call handler.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';
import { applyPortSource, defaultContinuationImport } from '../../transforms/index.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const dir = join(root, 'fixtures/analyzer/field-kept-closure');
const files = readdirSync(dir).filter((f) => f.endsWith('.ts')).sort().map((f) => join(dir, f));

describe('a closure kept in a field by the constructor', () => {
  const texts = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
  const { report, plans } = analyze({ cwd: root, files, texts, plan: { roots: 'config' } });
  const portOf = (name: string): string => {
    const file = files.find((f) => f.endsWith(name))!;
    const plan = plans.find((p) => p.file === relative(root, file)) ?? null;
    const source = texts.get(file)!;
    return applyPortSource({ source, path: file, plan, options: { codec: 'aead', roots: 'config', continuationImport: defaultContinuationImport(source) } });
  };

  it('is reached from the tools that await the methods calling it', () => {
    expect(report.sites.map((s) => `${s.line} ${s.portability} ${s.handler?.kind}:${s.via.map((v) => v.function).join('<')}`)).toEqual([
      '16 auto tool:Summarizer.summarize<complete',
      '39 auto tool:Gate.allow<confirm',
    ]);
  });

  it('is ported where it stands, the handler wrapped', () => {
    const assistants = portOf('assistants.ts');
    expect(assistants).not.toMatch(/server\.createMessage\(|server\.elicitInput\(/);
    expect(assistants).toContain('const result = await sample({ messages, maxTokens });');
    expect(assistants).toContain('const answer = await elicit({ message: question');
    expect(assistants).toContain('await once(() => Date.now())');
    expect(portOf('server.ts')).toContain('server.setRequestHandler(CallToolRequestSchema, resumable(undefined, async (request) => {');
  });
});
