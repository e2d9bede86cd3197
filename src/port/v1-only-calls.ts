/**
 * Calls of the SDK v1 registration API that SDK v2 removed: `server.tool(…)`, `server.prompt(…)`,
 * `server.resource(…)` (McpServer v2 has only `registerTool` / `registerPrompt` / `registerResource`, so a
 * v2 server throws `server.tool is not a function` at start-up). Found by shape, whatever the receiver is
 * called and whether or not the file imports the SDK: a name (string literal, or a name holding one) first,
 * a callback last, at least two arguments.
 */
import type * as TS from 'typescript';
import ts from '../typescript.cjs';

export const V1_ONLY_METHODS = ['tool', 'prompt', 'resource'] as const;
export type V1OnlyMethod = (typeof V1_ONLY_METHODS)[number];

export interface V1OnlyCall {
  /** 1-based line of the call's statement. */
  line: number;
  method: V1OnlyMethod;
  /** The receiver as written (`server`, `this.mcp`). */
  receiver: string;
}

const PREFILTER = /\.\s*(?:tool|prompt|resource)\s*\(/;

/** A cheap text test: could the file call a removed v1 registration method? */
export function mayCallV1OnlyApis(text: string): boolean {
  return PREFILTER.test(text);
}

/** The v1-only registration calls in a source text, in order. */
export function findV1OnlyCalls(text: string, path: string): V1OnlyCall[] {
  if (!mayCallV1OnlyApis(text)) return [];
  const kind = /\.[cm]?tsx?$/.test(path) ? (path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS) : path.endsWith('x') ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const found: V1OnlyCall[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      if ((V1_ONLY_METHODS as readonly string[]).includes(method) && isRegistrationShape(node.arguments)) {
        found.push({ line: sf.getLineAndCharacterOfPosition(statementOf(node).getStart(sf)).line + 1, method: method as V1OnlyMethod, receiver: node.expression.expression.getText(sf) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function isRegistrationShape(args: TS.NodeArray<TS.Expression>): boolean {
  if (args.length < 2) return false;
  const name = args[0];
  const named = ts.isStringLiteralLike(name) || ts.isIdentifier(name) || ts.isPropertyAccessExpression(name);
  const last = args[args.length - 1];
  const callback = ts.isArrowFunction(last) || ts.isFunctionExpression(last) || ts.isIdentifier(last) || ts.isPropertyAccessExpression(last) || ts.isCallExpression(last);
  // `x.tool(name, value)` with a plain value last is not a registration
  return named && callback && (args.length > 2 || ts.isArrowFunction(last) || ts.isFunctionExpression(last));
}

function statementOf(node: TS.Node): TS.Node {
  let n = node;
  while (n.parent && !ts.isSourceFile(n.parent) && !ts.isBlock(n.parent) && !ts.isCaseClause(n.parent) && !ts.isDefaultClause(n.parent)) n = n.parent;
  return n;
}
