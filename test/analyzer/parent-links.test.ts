/**
 * The analyzer parses without the parser's parent links (`parseSource(…, false)`) and lets `indexFile`'s
 * walk link them, so each file's tree is walked once instead of twice. The links must be exactly the
 * parser's own (`setParentNodes: true`): every node, JSDoc comments and what is inside them included,
 * gets the same parent, in TypeScript, TSX and JavaScript whose JSDoc carries types.
 */
import { describe, expect, it } from 'vitest';
import ts from '../../src/typescript.cjs';
import { indexFile } from '../../src/analyzer/file-index.js';
import { parseSource } from '../../src/analyzer/source.js';

const TS_TEXT = [
  `import { McpServer } from '@modelcontextprotocol/server';`,
  `/** The server. @see McpServer */`,
  `export const server = new McpServer({ name: 'x', version: '1' });`,
  `/**`,
  ` * Asks once. {@link server}`,
  ` * @param ctx the request context`,
  ` * @returns whether the user agreed`,
  ` */`,
  `export async function confirm(ctx: any, what: string): Promise<boolean> {`,
  `  const answer = await ctx.mcpReq.elicitInput({ message: \`Confirm \${what}?\`, requestedSchema: { type: 'object', properties: {} } });`,
  `  return answer.action === 'accept';`,
  `}`,
  `@decorate() class Tools<T extends object = {}> {`,
  `  /** a field */ #count = 0;`,
  `  constructor(private readonly low: McpServer) {}`,
  `  get count(): number { return this.#count; }`,
  `  async run({ a, b: [c, ...d] }: { a: number; b: number[] }, ...rest: T[]) {`,
  `    for (const x of d) if (x > a) { label: while (c--) { break label; } }`,
  `    try { await this.low.server.listRoots(); } catch { /* none */ } finally { this.#count++; }`,
  `    return rest.map((r) => (r as any)?.[a] ?? (typeof r === 'object' ? { ...r } : [r]));`,
  `  }`,
  `}`,
  `type Shape<K extends string> = { [P in K]?: P extends 'a' ? 1 : 2 } & Record<\`k-\${K}\`, unknown>;`,
  `enum Mode { A = 1, B = A << 1 }`,
  `namespace NS { export declare function f(this: Window, x?: number): asserts x is number; }`,
  `export default server;`,
  `/** trailing doc on the end of the file */`,
].join('\n');

const TSX_TEXT = [
  `/** A component. */`,
  `export function View({ items }: { items: string[] }) {`,
  `  return <ul className="list">{items.map((i) => <li key={i}>{i}</li>)}<></></ul>;`,
  `}`,
].join('\n');

const JS_TEXT = [
  `/** @typedef {{ ok: boolean }} Answer */`,
  `/**`,
  ` * @template T`,
  ` * @param {import('@modelcontextprotocol/server').ServerContext} ctx`,
  ` * @param {T} value`,
  ` * @returns {Promise<Answer>}`,
  ` */`,
  `export async function ask(ctx, value) {`,
  `  /** @type {Answer} */`,
  `  const answer = /** @type {any} */ (await ctx.mcpReq.elicitInput({ message: String(value) }));`,
  `  return answer;`,
  `}`,
].join('\n');

/** Every node in a fixed order: forEachChild's children, each node's JSDoc and what is inside it. */
function nodesOf(sf: ts.SourceFile): ts.Node[] {
  const out: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    out.push(node);
    for (const doc of (node as ts.Node & { jsDoc?: ts.JSDoc[] }).jsDoc ?? []) visit(doc);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Each node's parent, as the position of that parent in `nodesOf` (-1: none). */
function parentPositions(sf: ts.SourceFile): number[] {
  const nodes = nodesOf(sf);
  const at = new Map(nodes.map((n, i) => [n, i]));
  return nodes.map((n) => (n.parent ? (at.get(n.parent) ?? -2) : -1));
}

describe('indexFile links parents as the parser does', () => {
  for (const [file, text] of [
    ['/p/tools.ts', TS_TEXT],
    ['/p/view.tsx', TSX_TEXT],
    ['/p/ask.js', JS_TEXT],
  ] as const) {
    it(file, () => {
      const linked = parseSource(file, text, true);
      const bare = parseSource(file, text, false);
      if (!linked.ok || !bare.ok) throw new Error(`${file} does not parse`);
      // the bare tree really has no links yet (else this test could not fail)
      expect(bare.sf.statements[0].parent).toBeUndefined();
      indexFile(file, file.slice(3), bare.sf);
      const expected = parentPositions(linked.sf);
      expect(expected.filter((p) => p >= 0).length).toBe(expected.length - 1);
      expect(parentPositions(bare.sf)).toEqual(expected);
      // JSDoc nodes are part of the comparison, not skipped
      expect(nodesOf(bare.sf).some((n) => n.kind === ts.SyntaxKind.JSDoc)).toBe(true);
    });
  }
});
