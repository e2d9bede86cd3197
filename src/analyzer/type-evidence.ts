/**
 * The type checker's answer for a receiver syntax could not place: is it the SDK's protocol server
 * (`Server`, `McpServer`, or a repo type extending one), or a handler context? Asked only for calls
 * named like a server method (`createMessage`, `listRoots`, `request`) whose receiver no flow
 * explained, so an LLM client's `createMessage` stays what its type says it is.
 */
import ts from '../typescript.cjs';

const SERVER_TYPE_NAMES = new Set(['Server', 'McpServer', 'ServerContext', 'RequestHandlerExtra']);
const SDK_PATH = /[\\/]@modelcontextprotocol[\\/]/;

export function isProtocolServerCall(checker: ts.TypeChecker, call: ts.CallExpression, receiver: ts.Expression): boolean {
  // the method resolves into the SDK's own declarations
  const callee = call.expression;
  const member = ts.isPropertyAccessExpression(callee) ? callee.name : ts.isElementAccessExpression(callee) ? callee.argumentExpression : undefined;
  const method = member ? checker.getSymbolAtLocation(member) : undefined;
  if (method?.declarations?.some((d) => SDK_PATH.test(d.getSourceFile().fileName) && declaredOnServer(d))) return true;
  return isServerType(checker, checker.getTypeAtLocation(receiver), 0);
}

/** A member of the SDK's server classes (not of its MRTR builders, `inputRequired.createMessage`). */
function declaredOnServer(member: ts.Declaration): boolean {
  const owner = member.parent;
  return (ts.isClassDeclaration(owner) || ts.isInterfaceDeclaration(owner)) && !!owner.name && SERVER_TYPE_NAMES.has(owner.name.text);
}

function isServerType(checker: ts.TypeChecker, type: ts.Type, depth: number): boolean {
  if (depth > 6 || type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) return false;
  if (type.isUnionOrIntersection()) return type.types.some((t) => isServerType(checker, t, depth + 1));
  for (const symbol of [type.aliasSymbol, type.getSymbol()]) {
    if (!symbol) continue;
    if (SERVER_TYPE_NAMES.has(symbol.name)) return true;
  }
  if (type.isClassOrInterface()) {
    for (const base of checker.getBaseTypes(type)) if (isServerType(checker, base, depth + 1)) return true;
  }
  return false;
}
