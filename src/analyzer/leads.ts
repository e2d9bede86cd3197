/**
 * Names that can lead another file to a site in this one, for the pass-2 prefilter: the exported
 * functions, classes and objects from which the site is reachable inside its own file (walking
 * from the site out through local callers), and the module's base name when it has a default export.
 */
import { basename, extname } from 'node:path';
import ts from '../typescript.cjs';
import { enclosingFunction, functionName, outerParent, owningClass } from './ast.js';
import type { FileIndex } from './file-index.js';

/** A call that a function on the site's path is handed to, as argument `index` (the caller resolves what it calls). */
export type HandedOn = (call: ts.CallExpression, index: number) => void;

export function leadNames(node: ts.Node, index: FileIndex, handedOn?: HandedOn): Set<string> {
  const leads = new Set<string>();
  const exported = new Set(index.exports.values());
  const seen = new Set<ts.Node>();
  const queue: ts.Node[] = [node];
  // a function value handed to a call (`useSampler(fn)`): the function called may keep it and call it later
  const noteHanded = (value: ts.Node): void => {
    const call = outerParent(value).parent;
    if (!handedOn || !call || !ts.isCallExpression(call)) return;
    const at = call.arguments.findIndex((a) => outerParent(a) === outerParent(value));
    if (at >= 0 && (ts.isIdentifier(call.expression) || ts.isPropertyAccessExpression(call.expression))) handedOn(call, at);
  };
  while (queue.length > 0 && seen.size < 256) {
    const from = queue.pop()!;
    if (from !== node) noteHanded(from);
    // a module-level table holding it (`export const TOOLS = { refund: REFUND_TOOL }`) leads on by its name
    const table = enclosingFunction(from) ? undefined : topLevelVariable(from);
    if (table && !seen.has(table)) {
      seen.add(table);
      if (exported.has(table.name.text)) leads.add(table.name.text);
      for (const ref of index.identRefs.get(table.name.text) ?? []) queue.push(ref);
    }
    for (let fn = enclosingFunction(from); fn; fn = enclosingFunction(fn)) {
      if (seen.has(fn)) break;
      seen.add(fn);
      noteHanded(fn);
      const name = functionName(fn);
      const cls = owningClass(fn);
      const holder = objectHolderName(fn);
      if (cls) {
        // members are reached as `x.name(…)` from files that import the class
        if (cls.name && exported.has(cls.name.text) && name) leads.add(name).add(cls.name.text);
        if (name) for (const ref of index.propRefs.get(name) ?? []) queue.push(ref);
      } else if (holder) {
        if (exported.has(holder)) leads.add(holder);
        for (const ref of index.identRefs.get(holder) ?? []) queue.push(ref);
      } else if (name) {
        if (exported.has(name)) leads.add(name);
        for (const ref of index.identRefs.get(name) ?? []) queue.push(ref);
      }
    }
  }
  // a default export is imported under any name: importers name the module instead
  if (index.exports.has('default') && leads.size > 0) {
    const base = basename(index.file, extname(index.file));
    if (base !== 'index') leads.add(base);
  }
  return leads;
}

/** The module-level `const X = …` whose initializer holds `node`. */
function topLevelVariable(node: ts.Node): (ts.VariableDeclaration & { name: ts.Identifier }) | undefined {
  for (let n: ts.Node | undefined = node.parent; n && !ts.isSourceFile(n); n = n.parent) {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.parent.parent && ts.isVariableStatement(n.parent.parent) && ts.isSourceFile(n.parent.parent.parent)) {
      return n as ts.VariableDeclaration & { name: ts.Identifier };
    }
  }
  return undefined;
}

/** `const handlers = { refund: async () => … }` → `handlers` for the function stored under `refund`. */
function objectHolderName(fn: ts.FunctionLikeDeclaration): string | undefined {
  const prop = ts.isMethodDeclaration(fn) ? fn : outerParent(fn).parent;
  if (!prop || !(ts.isMethodDeclaration(prop) || ts.isPropertyAssignment(prop)) || !ts.isObjectLiteralExpression(prop.parent)) return undefined;
  const decl = outerParent(prop.parent).parent;
  return decl && ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name) ? decl.name.text : undefined;
}
