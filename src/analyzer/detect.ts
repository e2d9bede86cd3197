/**
 * The TypeScript-AST adapter of the shared vocabulary: turns a call into a `CallShape` and asks
 * `matchLegacyCall` whether it is a legacy server→client request.
 */
import ts from 'typescript';
import { enclosingFunction, functionName, memberChain, outerParent, owningClass, propertyNameText, stringValue, unwrap } from './ast.js';
import type { FileIndex } from './file-index.js';
import { LEGACY_METHODS, matchLegacyCall, TASK_STREAM_METHODS, URL_ELICITATION_ERROR, type CallShape, type SiteForm, type SiteKind } from '../vocabulary.js';

export interface RawSite {
  /** The node whose start is the reported position: the call, or the `throw` statement. */
  node: ts.Node;
  call: ts.CallExpression | ts.NewExpression;
  kind: SiteKind;
  form: SiteForm;
  /** v1's experimental task stream (`experimental.tasks.elicitInputStream`, …): never servable by MRTR. */
  stream: boolean;
}

const LEGACY_NAMES = new Set(LEGACY_METHODS.map((m) => m.name));

export function detectSite(call: ts.CallExpression | ts.NewExpression, index: FileIndex): RawSite | undefined {
  if (ts.isNewExpression(call)) return detectUrlElicitationThrow(call);
  // cheap reject before building the member chain: most calls are not legacy names nor aliases of one
  const head = unwrap(call.expression);
  const last = ts.isPropertyAccessExpression(head) ? head.name.text : ts.isIdentifier(head) ? head.text : ts.isElementAccessExpression(head) ? '?' : '';
  if (!LEGACY_NAMES.has(last) && !(ts.isIdentifier(head) && index.legacyAliases.has(last)) && last !== '?') return undefined;
  const written = memberChain(call.expression);
  let callee = written;
  let bareFromLegacyReceiver = false;
  if (written.length === 1) {
    const alias = index.legacyAliases.get(written[0]);
    if (Array.isArray(alias)) {
      callee = alias;
      bareFromLegacyReceiver = true;
    } else if (isParameterNamed(call, written[0])) {
      // a legacy method passed on as an argument: `async function ask(send) { await send({ method: 'elicitation/create', … }) }`
      bareFromLegacyReceiver = true;
    }
  }
  const name = callee[callee.length - 1];
  if (!LEGACY_NAMES.has(name)) return undefined;
  if (isSdkInternal(call)) return undefined;

  const request = call.arguments[0] ? resolveObjectLiteral(call.arguments[0]) : undefined;
  const methodProp = request ? findProperty(request, 'method') : undefined;
  const second = call.arguments[1] ? unwrap(call.arguments[1]) : undefined;
  const receiver = callee.slice(0, -1);
  const shape: CallShape = {
    callee,
    methodLiteral: methodProp && ts.isPropertyAssignment(methodProp) ? stringValue(methodProp.initializer) : undefined,
    resultSchemaName: second && (ts.isIdentifier(second) || ts.isPropertyAccessExpression(second)) ? memberChain(second).at(-1) : undefined,
    receiverIsServer: receiver.length > 0 && isServerReceiver(receiver, index),
    bareFromLegacyReceiver,
  };
  const match = matchLegacyCall(shape);
  if (!match) return undefined;
  return { node: call, call, kind: match.kind, form: match.form, stream: TASK_STREAM_METHODS.includes(match.method.name) };
}

/** `throw new UrlElicitationRequiredError(...)`; a bare `new` (not thrown on the spot) is not a site. */
function detectUrlElicitationThrow(expr: ts.NewExpression): RawSite | undefined {
  const chain = memberChain(expr.expression);
  if (chain[chain.length - 1] !== URL_ELICITATION_ERROR) return undefined;
  const holder = outerParent(expr).parent;
  if (!holder || !ts.isThrowStatement(holder)) return undefined;
  if (isSdkInternal(expr)) return undefined;
  return { node: holder, call: expr, kind: 'elicitation', form: 'url-elicitation-error', stream: false };
}

/** A protocol Server held in a variable, field or parameter the file declares as such. */
function isServerReceiver(receiver: readonly string[], index: FileIndex): boolean {
  const last = receiver[receiver.length - 1];
  return index.serverNames.has(last) && (receiver.length === 1 || (receiver.length === 2 && receiver[0] === 'this'));
}

function isParameterNamed(node: ts.Node, name: string): boolean {
  for (let fn = enclosingFunction(node); fn; fn = enclosingFunction(fn)) {
    if (fn.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === name)) return true;
  }
  return false;
}

/**
 * SDK-internals-like code: the implementation of a legacy method itself (a class member named
 * `elicitInput`, `createMessage`, `request`, …), not a use of it.
 */
function isSdkInternal(node: ts.Node): boolean {
  for (let fn = enclosingFunction(node); fn; fn = enclosingFunction(fn)) {
    if (owningClass(fn)) {
      const name = functionName(fn);
      if (name && LEGACY_NAMES.has(name)) return true;
    }
  }
  return false;
}

/**
 * The object literal an argument is, or the one a `const` it names was initialised with (searched in
 * the enclosing blocks, then at module level).
 */
export function resolveObjectLiteral(arg: ts.Expression): ts.ObjectLiteralExpression | undefined {
  const e = unwrap(arg);
  if (ts.isObjectLiteralExpression(e)) return e;
  if (!ts.isIdentifier(e)) return undefined;
  const decl = findConstDeclaration(e, e.text);
  const init = decl?.initializer ? unwrap(decl.initializer) : undefined;
  return init && ts.isObjectLiteralExpression(init) ? init : undefined;
}

export function findConstDeclaration(from: ts.Node, name: string): ts.VariableDeclaration | undefined {
  for (let n: ts.Node | undefined = from.parent; n; n = n.parent) {
    const statements = ts.isBlock(n) || ts.isSourceFile(n) || ts.isModuleBlock(n) ? n.statements : ts.isCaseClause(n) || ts.isDefaultClause(n) ? n.statements : undefined;
    if (!statements) continue;
    for (const st of statements) {
      if (!ts.isVariableStatement(st) || !(st.declarationList.flags & ts.NodeFlags.Const)) continue;
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.name.text === name) return d;
    }
  }
  return undefined;
}

export function findProperty(obj: ts.ObjectLiteralExpression, name: string): ts.ObjectLiteralElementLike | undefined {
  return obj.properties.find((p) => !ts.isSpreadAssignment(p) && propertyNameText(p.name) === name);
}

