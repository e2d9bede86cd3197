/**
 * How a legacy request sits in its handler: the shapes the two-pass engine can rewrite
 * (`const x = await ask(…)`, `await ask(…);`, `throw new UrlElicitationRequiredError(…)`) and, for
 * anything else, the manual reason the site gets instead.
 */
import type { ReasonId } from '../../src/analyzer/reasons.js';
import { LOOP_TYPES, isFunction, memberChain, unwrap, type Node } from './ast.js';
import { statementOf } from './context.js';
import type { LegacyCall } from './legacy-calls.js';

export type AskShape =
  | { type: 'declared'; statement: Node; declarator: Node }
  | { type: 'discarded'; statement: Node }
  | { type: 'throw'; statement: Node }
  | { type: 'manual'; reason: ReasonId; statement: Node };

const RACERS = new Set(['race', 'any', 'all', 'allSettled']);
const WRAPPERS = new Set(['ParenthesizedExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'TSTypeAssertion']);

/** `fnIndex`: index in `call.ancestors` of the handler (or helper) function the call runs in. */
export function classifyAsk(call: LegacyCall, fnIndex: number): AskShape {
  const ancestors = call.ancestors;
  const statement = statementOf(call.node, ancestors);
  const inner = ancestors.slice(fnIndex + 1);
  const manual = (reason: ReasonId): AskShape => ({ type: 'manual', reason, statement });

  for (let i = 0; i < inner.length; i++) {
    const a = inner[i];
    if (isFunction(a)) return manual('nested-callback');
    if (LOOP_TYPES.has(a.type)) return manual('in-loop');
    if (a.type === 'TryStatement') return manual('try-catch');
    if (a.type === 'CallExpression') {
      const chain = memberChain(a.callee as Node);
      if (chain.length === 2 && chain[0] === 'Promise' && RACERS.has(chain[1])) return manual('raced');
    }
  }
  if (call.form === 'url-elicitation-error') return { type: 'throw', statement };

  // climb the wrappers around the call
  let k = ancestors.length - 1;
  let child: Node = call.node;
  while (k >= 0 && WRAPPERS.has(ancestors[k].type)) child = ancestors[k--];
  const parent = ancestors[k];
  if (!parent) return manual('not-awaited');
  if (parent.type !== 'AwaitExpression') {
    if (parent.type === 'ReturnStatement' || (parent.type === 'ArrowFunctionExpression' && parent.body === child)) return manual('result-escapes');
    return manual('not-awaited');
  }
  let j = k - 1;
  while (j >= 0 && WRAPPERS.has(ancestors[j].type)) j--;
  const holder = ancestors[j];
  if (!holder) return manual('in-expression');
  if (holder.type === 'ExpressionStatement') return { type: 'discarded', statement: holder };
  if (holder.type === 'ReturnStatement') return manual('result-escapes');
  if (holder.type === 'VariableDeclarator' && unwrap(holder.init as Node) === unwrap(parent)) {
    const declaration = ancestors[j - 1];
    if (declaration?.type === 'VariableDeclaration' && (declaration.declarations as Node[]).length === 1) {
      return { type: 'declared', statement: declaration, declarator: holder };
    }
  }
  return manual('in-expression');
}
