import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REASONS } from '../../src/analyzer/reasons.js';
import { applyPortSource, portSource, type PortOptions } from '../../transforms/index.js';
import twoPass from '../../transforms/two-pass-handlers.js';
import retireRoots from '../../transforms/retire-roots.js';
import urlElicitation from '../../transforms/url-elicitation.js';
import imports from '../../transforms/imports.js';
import helperAsks from '../../transforms/helper-asks.js';
import capabilityBranches from '../../transforms/capability-branches.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = (name: string): string => readFileSync(join(root, 'fixtures/transforms', name), 'utf8');
const options: PortOptions = { codec: 'aead', roots: 'config', continuationImport: './mrtr-continuation.js' };

const single = fixture('two-pass-handlers/single-elicitation-tool.input.ts');
const manual = fixture('markers/in-loop.input.ts');
const roots = fixture('retire-roots/roots-config.input.ts');
const url = fixture('url-elicitation/url-elicit-input.input.ts');

describe('portSource', () => {
  it('rewrites and reports a note per ported handler, without inserting markers', () => {
    const result = portSource({ source: single, path: 'server.ts', options });
    expect(result.changed).toBe(true);
    expect(result.notes).toEqual(['ported tool delete_file (1 round)']);
    expect(result.markers).toEqual([]);
    expect(result.source).toContain("inputRequired.elicit(answerRequest)");
  });

  it('returns markers at original statement lines with the reason advice, and leaves the handler as it was', () => {
    const result = portSource({ source: manual, path: 'server.ts', options });
    expect(result.changed).toBe(false);
    expect(result.source).toBe(manual);
    expect(result.markers).toEqual([{ line: 10, reason: 'in-loop', message: REASONS['in-loop'].advice }]);
  });

  it('follows the analyzer: a non-auto site is marked with its reasons and its handler is not touched', () => {
    const result = portSource({
      source: single,
      path: 'server.ts',
      options,
      sites: [{ line: 11, column: 24, portability: 'manual', reasons: ['try-catch', 'raced'] }],
    });
    expect(result.changed).toBe(false);
    expect(result.markers.map((m) => m.reason)).toEqual(['raced', 'try-catch']);
    expect(result.markers.every((m) => m.line === 11)).toBe(true);
  });

  it('leaves a guarded (already dual-era) site alone without a marker', () => {
    const result = portSource({ source: single, path: 'server.ts', options, sites: [{ line: 11, column: 24, portability: 'guarded', reasons: ['era-guarded'] }] });
    expect(result).toEqual({ source: single, changed: false, markers: [], notes: [] });
  });

  it('ports an auto site the analyzer located by its call column', () => {
    const result = portSource({ source: single, path: 'server.ts', options, sites: [{ line: 11, column: 24, portability: 'auto', reasons: [] }] });
    expect(result.notes).toEqual(['ported tool delete_file (1 round)']);
  });

  it('leaves files without legacy names alone before parsing them', () => {
    const text = 'this is not TypeScript at all {{{';
    expect(portSource({ source: text, path: 'notes.ts', options })).toEqual({ source: text, changed: false, markers: [], notes: [] });
  });

  it('refuses unparseable input with an error naming the file', () => {
    expect(() => portSource({ source: 'const x = await server.server.listRoots(;', path: 'broken.ts', options })).toThrow(/broken\.ts: cannot parse/);
  });

  it('imports the SDK-codec continuation module with --codec sdk, in the given import style', () => {
    const out = portSource({ source: single, path: 'server.ts', options: { ...options, codec: 'sdk', continuationImport: '../lib/mrtr-continuation' } }).source;
    expect(out).toContain("from '../lib/mrtr-continuation-sdk';");
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
    for (const transform of [twoPass, retireRoots, urlElicitation, imports, helperAsks, capabilityBranches]) expect(transform(file(unchanged), {}, {})).toBeUndefined();
  });

  it('each runs only its own concern', () => {
    expect(retireRoots(file(single), {}, {})).toBeUndefined();
    expect(twoPass(file(url), {}, {})).toBeUndefined();
    expect(urlElicitation(file(url), {}, {})).toContain('inputRequired.elicitUrl(');
    expect(retireRoots(file(roots), {}, {})).toContain('rootsFromConfig()');
    expect(twoPass(file(roots), {}, {})).toBeUndefined();
  });

  it('take --roots ask and --continuationImport from the command line options', () => {
    const asked = twoPass(file(roots), {}, { roots: 'ask', continuationImport: './runtime/mrtr-continuation.js' });
    expect(asked).toContain('inputRequired.listRoots()');
    expect(asked).toContain("from './runtime/mrtr-continuation.js'");
  });

  it('imports alone adds what already-rewritten code uses but does not import', () => {
    const rewritten = "import { McpServer } from '@modelcontextprotocol/server';\nexport const r = inputRequired({ requestState: 's' });\nexport { McpServer };\n";
    expect(imports(file(rewritten), {}, {})).toBe(
      "import { McpServer, inputRequired } from '@modelcontextprotocol/server';\nexport const r = inputRequired({ requestState: 's' });\nexport { McpServer };\n",
    );
  });
});
