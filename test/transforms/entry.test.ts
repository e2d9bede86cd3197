import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyzer/index.js';
import { emptyPlan } from '../../src/analyzer/plan/model.js';
import { REASONS } from '../../src/analyzer/reasons.js';
import { applyPortSource, portSource, type PortOptions } from '../../transforms/index.js';
import resumableHandlers from '../../transforms/resumable-handlers.js';
import retireRoots from '../../transforms/retire-roots.js';
import imports from '../../transforms/imports.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixturePath = (name: string): string => join(root, 'fixtures/transforms', name);
const fixture = (name: string): string => readFileSync(fixturePath(name), 'utf8');
const options: PortOptions = { codec: 'aead', roots: 'config', continuationImport: './mrtr-continuation.js' };

const single = fixture('imports/suffixless-relative-imports.input.ts');
const raced = fixture('markers/raced.input.ts');
const roots = fixture('retire-roots/roots-config.input.ts');

describe('portSource', () => {
  it('rewrites the plan of the file alone, without inserting markers', () => {
    const result = portSource({ source: single, path: 'server.ts', options });
    expect(result.changed).toBe(true);
    expect(result.markers).toEqual([]);
    expect(result.source).toContain("resumable('hello', async ({ name }) => {");
    expect(result.source).toContain('await elicit({');
  });

  it('returns markers at original statement lines with the reason advice, and leaves the handler as it was', () => {
    const result = portSource({ source: raced, path: 'server.ts', options });
    expect(result.changed).toBe(false);
    expect(result.source).toBe(raced);
    expect(result.markers).toEqual([{ line: 9, reason: 'raced', message: REASONS.raced.advice }]);
  });

  it('applies the plan it is given (the runner passes the project analysis), and nothing with a null plan', () => {
    const path = fixturePath('imports/suffixless-relative-imports.input.ts');
    const { plans } = analyze({ cwd: root, files: [path] });
    expect(plans).toHaveLength(1);
    expect(portSource({ source: single, path, options, plan: plans[0] }).source).toBe(portSource({ source: single, path, options }).source);
    expect(portSource({ source: single, path, options, plan: null })).toEqual({ source: single, changed: false, markers: [], notes: [] });
  });

  it('refuses a plan whose positions do not hold what it expects (the runner then leaves the file as it was)', () => {
    const plan = { ...emptyPlan('server.ts'), asks: [{ start: 0, end: 10, runtime: 'elicit' as const }] };
    expect(() => portSource({ source: single, path: 'server.ts', options, plan })).toThrow();
  });

  it('leaves files without legacy names alone before parsing them', () => {
    const text = 'this is not TypeScript at all {{{';
    expect(portSource({ source: text, path: 'notes.ts', options })).toEqual({ source: text, changed: false, markers: [], notes: [] });
  });

  it('refuses unparseable input with an error naming the file', () => {
    expect(() => portSource({ source: 'const x = await server.server.listRoots(;', path: 'broken.ts', options })).toThrow(/broken\.ts/);
  });

  it('imports the flow runtime from the module the runner names', () => {
    const out = portSource({ source: single, path: 'server.ts', options: { ...options, flowImport: '../lib/mrtr-flow' } }).source;
    expect(out).toContain("import { elicit, resumable } from '../lib/mrtr-flow';");
  });
});

describe('applyPortSource', () => {
  it('inserts each marker once, above its statement in the output', () => {
    const out = applyPortSource({ source: roots, path: 'server.ts', options });
    const lines = out.split('\n');
    const at = lines.findIndex((l) => l.includes('@mrtr-port-todo(roots-retired)'));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toContain('rootsFromConfig()');
    expect(out.split('@mrtr-port-todo').length - 1).toBe(1);
    expect(applyPortSource({ source: out, path: 'server.ts', options })).toBe(out);
  });
});

describe('jscodeshift modules', () => {
  const file = (source: string) => ({ path: 'server.ts', source });

  it('return undefined when nothing changes (jscodeshift then leaves the file alone)', () => {
    const unchanged = fixture('no-op/no-legacy-calls.input.ts');
    for (const transform of [resumableHandlers, retireRoots, imports]) expect(transform(file(unchanged), {}, {})).toBeUndefined();
  });

  it('each runs only its own concern', () => {
    expect(retireRoots(file(single), {}, {})).toBeUndefined();
    expect(resumableHandlers(file(single), {}, {})).toContain('await elicit({');
    expect(retireRoots(file(roots), {}, {})).toContain('rootsFromConfig()');
    expect(resumableHandlers(file(roots), {}, {})).toBeUndefined();
  });

  it('take --roots ask and --flowImport from the command line options', () => {
    const asked = resumableHandlers(file(roots), {}, { roots: 'ask', flowImport: './runtime/mrtr-flow.js' });
    expect(asked).toContain('await listRoots()');
    expect(asked).toContain("from './runtime/mrtr-flow.js'");
  });

  it('imports alone adds the runtime names already-rewritten code calls but does not import', () => {
    const rewritten = "import { McpServer } from '@modelcontextprotocol/server';\nexport const f = resumable('t', async () => elicit({ message: 'm', requestedSchema: { type: 'object', properties: {} } }));\nexport { McpServer };\n";
    expect(imports(file(rewritten), {}, {})).toBe(
      "import { McpServer } from '@modelcontextprotocol/server';\nimport { elicit, resumable } from './mrtr-flow.js';\nexport const f = resumable('t', async () => elicit({ message: 'm', requestedSchema: { type: 'object', properties: {} } }));\nexport { McpServer };\n",
    );
  });
});
