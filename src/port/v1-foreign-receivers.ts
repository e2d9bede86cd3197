/**
 * Calls the official v1→v2 codemod would rewrite although their receiver is not an MCP server.
 *
 * The codemod's McpServer transform renames `x.tool(…)` / `x.prompt(…)` / `x.resource(…)` to
 * `registerTool` / `registerPrompt` / `registerResource` (re-shaping the arguments), re-wraps the schemas
 * of `x.registerTool(…)` and kin, and its context transform renames a callback's `extra` parameter in all
 * six, on ANY receiver once the file imports `McpServer` (docs/port.md, "The codemod's receiver-blind
 * renames"): a server's own logger, `log.tool(name, action)`, became `log.registerTool(…)` and the user's
 * build failed (96 TS2339 errors on Jordonh18/fastmail-mcp-server).
 *
 * A call is kept as the user wrote it only when syntax proves the method is the repository's own: the
 * receiver's value is an object literal, or an instance or the class of a class that declares the method
 * and extends nothing, written in this file or in a module of the analyzed set it imports (through const
 * bindings, `this.x` fields, imports and re-exports, CommonJS `require` of `module.exports` / `exports.x`,
 * and the returns of the repository's own factory functions). Anything else (a parameter, a package's export, a class that extends something, a name
 * with `mcp`/`server` in it) is what the codemod decides, as before: it is usually the server.
 */
import type * as TS from 'typescript';
import ts from '../typescript.cjs';
import { unwrap } from '../analyzer/ast.js';
import { resolveBinding } from '../analyzer/bindings.js';
import { ownsMethodBySyntax } from '../analyzer/own-methods.js';
import { Project } from '../analyzer/project.js';

/** The methods whose calls the codemod rewrites whatever their receiver (McpServer API and context transforms). */
export const RECEIVER_BLIND_METHODS: ReadonlySet<string> = new Set(['tool', 'prompt', 'resource', 'registerTool', 'registerPrompt', 'registerResource']);

export interface ForeignCall {
  /** Offset of the method name (`tool` in `log.tool(`) in the file's text. */
  at: number;
  /**
   * Offsets of every name to shield: the method's, and each `extra` the call's own callbacks declare and
   * read (the codemod renames every `extra` inside a server handler's body, a nested callback's too).
   */
  names: number[];
  method: string;
  /** The receiver as written (`log`, `this.audit`). */
  receiver: string;
}

/** A call of one of those methods on a receiver not named like a server; only these files are parsed. */
const CANDIDATE = /([\w$#\])]+)\s*\??\.\s*(?:tool|prompt|resource|registerTool|registerPrompt|registerResource)\s*\(/g;

/**
 * Per file of `targets` (absolute paths), the calls of the receiver-blind methods whose receiver is shown
 * to be the repository's own object. `files` and `texts` are the run's whole set, as read (imports are
 * followed into them; nothing is read from disk).
 */
export function foreignReceiverCalls(input: { cwd: string; files: readonly string[]; texts: ReadonlyMap<string, string>; targets: readonly string[] }): Map<string, ForeignCall[]> {
  const found = new Map<string, ForeignCall[]>();
  let project: Project | undefined;
  for (const abs of input.targets) {
    const text = input.texts.get(abs);
    if (text === undefined || !hasCandidate(text)) continue;
    project ??= new Project(input.cwd, input.files, undefined, input.texts);
    const file = project.get(abs);
    if (!file) continue;
    const calls: ForeignCall[] = [];
    const visit = (node: TS.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && RECEIVER_BLIND_METHODS.has(node.expression.name.text)) {
        const callee = node.expression;
        const receiver = callee.expression;
        if (!namedLikeServer(receiver) && ownsMethodBySyntax(project!, receiver, callee.name.text, file)) {
          const at = callee.name.getStart(file.sf);
          calls.push({ at, names: [at, ...ownExtras(node, file.sf)], method: callee.name.text, receiver: receiver.getText(file.sf) });
        }
      }
      ts.forEachChild(node, visit);
    };
    try {
      visit(file.sf);
    } catch {
      // an answer this file cannot give is the codemod's, as before: nothing kept
      continue;
    }
    if (calls.length > 0) found.set(abs, calls);
  }
  return found;
}

/** The codemod's name for a handler's context parameter, which it renames to `ctx` wherever it sees it. */
const EXTRA = 'extra';

/** Offsets of the `extra` parameters a call's own callbacks declare, and of their reads. */
function ownExtras(call: TS.CallExpression, sf: TS.SourceFile): number[] {
  const out: number[] = [];
  const visit = (n: TS.Node): void => {
    if (ts.isIdentifier(n) && n.text === EXTRA) {
      const b = ts.isParameter(n.parent) && n.parent.name === n ? n.parent : resolveBinding(n, EXTRA);
      if (b && ts.isParameter(b) && b.pos >= call.arguments.pos && b.end <= call.arguments.end) out.push(n.getStart(sf));
    }
    ts.forEachChild(n, visit);
  };
  for (const arg of call.arguments) visit(arg);
  return out;
}

/** A cheap text test: a receiver-blind call on something whose last name is not server-like. */
function hasCandidate(text: string): boolean {
  for (const m of text.matchAll(CANDIDATE)) if (!hasServerWord(m[1])) return true;
  return false;
}

/** The codemod's own test for a receiver "named like an MCP server": a camelCase / snake_case word `mcp` or `server` in its last name. */
function hasServerWord(name: string): boolean {
  return name.split(/[^a-zA-Z0-9]+|(?=[A-Z])/).filter(Boolean).some((word) => /^(mcp|server)$/i.test(word));
}

function namedLikeServer(receiver: TS.Expression): boolean {
  const r = unwrap(receiver);
  if (ts.isIdentifier(r) || ts.isPrivateIdentifier(r)) return hasServerWord(r.text);
  if (ts.isPropertyAccessExpression(r)) return hasServerWord(r.name.text);
  return false;
}
