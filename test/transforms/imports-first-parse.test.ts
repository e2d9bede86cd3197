/**
 * The cases the first-parse import finder must not guess at: it parses the output again for them
 * (and says why), and the output is the same as the old two-parse way. Plus the tokenizer it reads
 * edit texts with.
 */
import { describe, expect, it } from 'vitest';
import type { PortOptions } from '../../transforms/index.js';
import { tokenize } from '../../transforms/lib/code-tokens.js';
import { ALL_TRANSFORMS, type EnabledTransforms } from '../../transforms/lib/context.js';
import { applyPortSourceWith } from '../../transforms/lib/pipeline.js';

const options: PortOptions = { codec: 'aead', roots: 'config', continuationImport: './mrtr-continuation.js' };
const IMPORTS_ONLY: EnabledTransforms = { retireRoots: false, capabilityBranches: false, twoPass: false, urlElicitation: false, imports: true };

const tool = (body: string, extra = ''): string => `import { McpServer } from '@modelcontextprotocol/server';

const server = new McpServer({ name: 'greeter', version: '1.0.0' });
${extra}
server.registerTool('greet', { description: 'Greets' }, async () => {
  const who = await server.server.elicitInput({
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
${body}
  return { content: [{ type: 'text', text: who.action === 'accept' ? 'Hello' : 'Bye' }] };
});
`;

/** Ports both ways; returns the first-parse output and the reasons it parsed again. */
function portBothWays(source: string, enabled: EnabledTransforms = ALL_TRANSFORMS, path = 'server.ts'): { output: string; reparsed: string[] } {
  const reparsed: string[] = [];
  const output = applyPortSourceWith({ source, path, options }, enabled, { onReparse: (_, reason) => reparsed.push(reason) });
  expect(output).toBe(applyPortSourceWith({ source, path, options }, enabled, { mode: 'reparse' }));
  return { output, reparsed };
}

describe('imports from the first parse', () => {
  it('adds the imports of a plain port without parsing again', () => {
    const { output, reparsed } = portBothWays(tool(''));
    expect(reparsed).toEqual([]);
    expect(output).toContain("import { McpServer, inputRequired } from '@modelcontextprotocol/server';");
    expect(output).toMatch(/import \{ bindRequest, continuation, elicitationAnswer \} from '\.\/mrtr-continuation\.js';/);
  });

  it('names in comments and strings of the original do not count as uses', () => {
    const { output, reparsed } = portBothWays(tool("  console.log('continuation'); // inputRequired"));
    expect(reparsed).toEqual([]);
    expect(output).toContain('import { bindRequest, continuation, elicitationAnswer }');
  });

  it('parses again when the original uses an importable name as an identifier it does not bind', () => {
    const { output, reparsed } = portBothWays(tool('  const step = (continuation: unknown) => continuation;\n  void step;'));
    expect(reparsed).toEqual(['continuation is an identifier of the original and in an edit text']);
    expect(output).toContain('import { bindRequest, continuation, elicitationAnswer }');
  });

  it('sees an importable identifier spelled with a unicode escape', () => {
    const { reparsed } = portBothWays(tool('  const step = (\\u0063ontinuation: unknown) => \\u0063ontinuation;\n  void step;'));
    expect(reparsed).toEqual(['continuation is an identifier of the original and in an edit text']);
  });

  it('needs no import for a name the original binds, and still does not parse again', () => {
    const { output, reparsed } = portBothWays(tool('', "import { inputRequired } from './my-own.js';\n"));
    expect(reparsed).toEqual([]);
    expect(output).not.toContain("McpServer, inputRequired }");
  });

  it('parses again when the file has no imports and the port edits its first statement', () => {
    const source = `server.registerTool('greet', {}, async () => {
  const who = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: who.action }] };
});
`;
    const { output, reparsed } = portBothWays(source);
    expect(reparsed).toEqual(['no imports, and an edit touches the first statement or what precedes it']);
    expect(output.startsWith("import { inputRequired } from '@modelcontextprotocol/server';")).toBe(true);
  });

  it('the imports-only transform (no edits) imports what already-ported code uses', () => {
    const source = "import { McpServer } from '@modelcontextprotocol/server';\nexport const r = () => inputRequired({ inputRequests: {} });\n";
    const { output, reparsed } = portBothWays(source, IMPORTS_ONLY);
    expect(reparsed).toEqual([]);
    expect(output).toContain("import { McpServer, inputRequired } from '@modelcontextprotocol/server';");
  });
});

describe('edit-text tokenizer', () => {
  const names = (text: string): string[] => tokenize(text).tokens.filter((t) => t.kind === 'name').map((t) => t.value);

  it('skips strings and comments and reads template substitutions', () => {
    expect(names("a('inputRequired', \"x\") // continuation\n/* bindRequest */ b")).toEqual(['a', 'b']);
    expect(names('`text ${inputRequired({ a: `in ${b}` })} continuation`')).toEqual(['inputRequired', 'a', 'b']);
    expect(tokenize('`a ${b}`').unsure).toBe(false);
  });

  it('tells a regular expression from a division where the previous token decides', () => {
    expect(names('x = /inputRequired/g.test(y)')).toEqual(['x', 'test', 'y']);
    expect(names('a / b / c')).toEqual(['a', 'b', 'c']);
    expect(tokenize('a / b').unsure).toBe(false);
  });

  it('is unsure where it cannot tell', () => {
    expect(tokenize('(a) / b / g').unsure).toBe(true);
    expect(tokenize("'open").unsure).toBe(true);
    expect(tokenize('`open ${a').unsure).toBe(true);
  });
});
