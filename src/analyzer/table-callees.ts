/**
 * The functions a call through a keyed table may invoke: `toolHandler.handler(args, ask)` where
 * `const toolHandler = toolHandlers[name]` and `toolHandlers = { a: { handler: handleA }, b: … }`
 * (also `table[name](…)` directly). Syntax only: the table is an object literal declared in the file
 * or imported from another analyzed file, and each candidate is a function it names or holds. Used to
 * follow a function value passed into such a call to where the candidates use that parameter.
 */
import ts from '../typescript.cjs';
import { propertyNameText, unwrap } from './ast.js';
import { resolveBinding } from './bindings.js';
import type { FileIndex } from './file-index.js';
import { calledFunction, topLevelDeclaration, type FunctionAt } from './functions.js';
import type { Project } from './project.js';

/** At most this many candidates: a table larger than that is a registry the walk should not fan into. */
const MAX_CANDIDATES = 32;

export function tableCallees(callee: ts.Expression, file: FileIndex, project: Project): FunctionAt[] {
  const c = unwrap(callee);
  // `entry.member(…)` over `const entry = table[key]`, or `table[key](…)`
  const member = ts.isPropertyAccessExpression(c) ? c.name.text : undefined;
  const lookup = member !== undefined ? keyedReadOf(unwrap((c as ts.PropertyAccessExpression).expression)) : ts.isElementAccessExpression(c) ? c : undefined;
  if (!lookup) return [];
  const table = objectLiteralOf(unwrap(lookup.expression), file, project);
  if (!table) return [];
  const out: FunctionAt[] = [];
  for (const prop of table.literal.properties) {
    if (out.length >= MAX_CANDIDATES) break;
    const value = propertyValue(prop);
    const held = value && member !== undefined ? memberOf(unwrap(value), member) : value;
    const fn = held ? functionAt(unwrap(held), table.file, project) : undefined;
    if (fn) out.push(fn);
  }
  return out;
}

/** `table[key]` itself, or the initializer of the `const` the identifier is bound to. */
function keyedReadOf(e: ts.Expression): ts.ElementAccessExpression | undefined {
  if (ts.isElementAccessExpression(e)) return e;
  if (!ts.isIdentifier(e)) return undefined;
  const b = resolveBinding(e, e.text);
  const init = b && ts.isVariableDeclaration(b) && b.initializer ? unwrap(b.initializer) : undefined;
  return init && ts.isElementAccessExpression(init) ? init : undefined;
}

/** The object literal an identifier names in this file, or in the analyzed file it is imported from. */
function objectLiteralOf(e: ts.Expression, file: FileIndex, project: Project): { literal: ts.ObjectLiteralExpression; file: FileIndex } | undefined {
  if (!ts.isIdentifier(e)) return undefined;
  const b = resolveBinding(e, e.text);
  let decl = b;
  let at = file;
  if (b && ts.isImportSpecifier(b)) {
    const spec = b.parent.parent.parent.moduleSpecifier;
    if (!ts.isStringLiteral(spec)) return undefined;
    const target = project.resolveImport(file, spec.text, (b.propertyName ?? b.name).text);
    if (!target || 'namespace' in target) return undefined;
    decl = topLevelDeclaration(target.file.sf, target.local);
    at = target.file;
  }
  const init = decl && ts.isVariableDeclaration(decl) && decl.initializer ? unwrap(decl.initializer) : undefined;
  return init && ts.isObjectLiteralExpression(init) ? { literal: init, file: at } : undefined;
}

function propertyValue(p: ts.ObjectLiteralElementLike): ts.Expression | undefined {
  if (ts.isPropertyAssignment(p)) return p.initializer;
  if (ts.isShorthandPropertyAssignment(p)) return p.name;
  return undefined;
}

function memberOf(e: ts.Expression, member: string): ts.Expression | undefined {
  if (!ts.isObjectLiteralExpression(e)) return undefined;
  for (const p of e.properties) {
    if (ts.isMethodDeclaration(p) && propertyNameText(p.name) === member) return undefined;
    if ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && propertyNameText(p.name) === member) return propertyValue(p);
  }
  return undefined;
}

function functionAt(e: ts.Expression, file: FileIndex, project: Project): FunctionAt | undefined {
  if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return { fn: e, file };
  return ts.isIdentifier(e) ? calledFunction(e, file, project) : undefined;
}
