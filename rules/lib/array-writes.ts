/**
 * `await once(() => history.push(entry))` before an ask, and `history` read after the answer: the memoized
 * change of an array the handler does not own holds only on the replica of the round that made it, and the
 * round that reads it may run on another (docs/engine.md, "What is memoized": the port leaves such a
 * handler `manual(array-write-across-ask)`). Rules have no types: an array mutator is known by its name
 * (the Array row of the one table of built-in mutators, whose names no Map or Set method shares), on a
 * name declared outside the function that changes it, or on `this.x`; a local function the thunk calls is
 * followed (three deep).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { BUILTIN_MUTATORS, BUILTIN_MUTATOR_NAMES } from '../../src/analyzer/plan/builtins.js';
import { unwrap } from './expressions.js';
import { childNodes, findVariable, localFunction } from './resolve.js';

const ARRAY_MUTATORS: ReadonlySet<string> = new Set(BUILTIN_MUTATORS.Array);
const MAX_DEPTH = 3;

/** An array a thunk changes: a variable of the file, or `this.<name>`. */
export type ArrayRef = { variable: TSESLint.Scope.Variable; text: string } | { field: string; text: string };

/** The arrays not declared in `handler` that running the thunk of its `once(thunk)` changes in place (by name: push, splice, …). */
export function arraysChangedBy(sourceCode: Readonly<TSESLint.SourceCode>, thunk: TSESTree.Node, handler: TSESTree.Node): ArrayRef[] {
  const out: ArrayRef[] = [];
  const seen = new Set<TSESTree.Node>();
  const walk = (node: TSESTree.Node, owner: TSESTree.Node): void => {
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const callee = unwrap(node.callee);
      if (callee.type === AST_NODE_TYPES.MemberExpression && !callee.computed && callee.property.type === AST_NODE_TYPES.Identifier && ARRAY_MUTATORS.has(callee.property.name)) {
        const ref = outerArray(sourceCode, unwrap(callee.object), owner);
        if (ref) out.push(ref);
      }
      const fn = localFunction(sourceCode, callee);
      if (fn && !seen.has(fn) && seen.size < MAX_DEPTH) {
        seen.add(fn);
        walk(fn.body, fn);
      }
    }
    for (const child of childNodes(node)) walk(child, owner);
  };
  walk(thunk, handler);
  return out;
}

/**
 * A read of the array in `fn` from `from` on (a further change as a statement, `history.push(x);`, or an
 * assignment to it, is not a read): the node read, or undefined.
 */
export function arrayReadFrom(array: ArrayRef, fn: TSESTree.Node, from: number): TSESTree.Node | undefined {
  const inFn = (n: TSESTree.Node): boolean => n.range[0] >= Math.max(from, fn.range[0]) && n.range[1] <= fn.range[1];
  if ('variable' in array) {
    for (const ref of array.variable.references) {
      if (ref.isRead() && !ref.isWrite() && inFn(ref.identifier) && !isChangeStatement(ref.identifier)) return ref.identifier;
    }
    return undefined;
  }
  let found: TSESTree.Node | undefined;
  const visit = (n: TSESTree.Node): void => {
    if (found) return;
    if (n.type === AST_NODE_TYPES.MemberExpression && n.object.type === AST_NODE_TYPES.ThisExpression && !n.computed && n.property.type === AST_NODE_TYPES.Identifier && n.property.name === array.field && inFn(n) && !isChangeStatement(n)) {
      const parent = n.parent;
      if (!(parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left === n)) {
        found = n;
        return;
      }
    }
    for (const child of childNodes(n)) visit(child);
  };
  visit(fn);
  return found;
}

/** The array `receiver` names, when it is not the code's own: a name declared outside `owner`, or `this.x`. */
function outerArray(sourceCode: Readonly<TSESLint.SourceCode>, receiver: TSESTree.Node, owner: TSESTree.Node): ArrayRef | undefined {
  if (receiver.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, receiver);
    const def = variable?.defs[0];
    if (!variable || !def || (def.node.range[0] >= owner.range[0] && def.node.range[1] <= owner.range[1])) return undefined;
    // a parameter of a function around it is that call's own value
    if (def.type === 'Parameter') return undefined;
    return { variable, text: receiver.name };
  }
  if (receiver.type === AST_NODE_TYPES.MemberExpression && receiver.object.type === AST_NODE_TYPES.ThisExpression && !receiver.computed && receiver.property.type === AST_NODE_TYPES.Identifier) {
    return { field: receiver.property.name, text: `this.${receiver.property.name}` };
  }
  return undefined;
}

/** `history.push(x);` / `this.items.push(x);`: a statement that only changes the array. */
function isChangeStatement(receiver: TSESTree.Node): boolean {
  const member = receiver.parent;
  if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== receiver || member.computed || member.property.type !== AST_NODE_TYPES.Identifier) return false;
  if (!BUILTIN_MUTATOR_NAMES.has(member.property.name)) return false;
  const call = member.parent;
  return call?.type === AST_NODE_TYPES.CallExpression && call.callee === member && call.parent?.type === AST_NODE_TYPES.ExpressionStatement;
}
