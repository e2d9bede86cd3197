/**
 * The ported shape (docs/engine.md): `resumable(name, async (args, ctx) => { … await once(() => E) …
 * await elicit(params) … })`, with the runtime imported from the local `./mrtr-flow.js` helper. Inside
 * it there is no hand-built input_required result: the runtime asks, seals, replays and claims.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { unwrap } from './expressions.js';
import type { FunctionNode } from './resolve.js';
import { findVariable } from './resolve.js';
import { FLOW_ASK_NAMES, FLOW_RUNTIME_NAMES, type FlowRuntimeName } from '../../src/vocabulary.js';

/** The helper module `port` writes next to the user's sources (src/runtime/mrtr-flow.ts). */
export const FLOW_MODULE = /(^|\/)mrtr-flow(\.[cm]?[jt]s)?$/;
/** Text whose absence proves a file does not use the runtime (the prefilter). */
export const FLOW_HINT = 'mrtr-flow';

/**
 * What the runtime exports, by exported name; `request` is the raw ask's name in ported code written
 * before the runtime named it `inputRequest`.
 */
export type FlowExport = FlowRuntimeName | 'request';
const FLOW_EXPORTS = new Set<FlowExport>([...FLOW_RUNTIME_NAMES, 'request']);
/** Runtime calls that ask the client (each may suspend the round); `inputRequest` is the raw `send`/`request` form. */
export const FLOW_ASKS = new Set<FlowExport>([...FLOW_ASK_NAMES, 'request']);

/** The exported runtime name a call's callee refers to: a binding imported from mrtr-flow, or a namespace member of it. */
export function flowExportOf(sourceCode: Readonly<TSESLint.SourceCode>, callee: TSESTree.Node): FlowExport | undefined {
  const c = unwrap(callee);
  if (c.type === AST_NODE_TYPES.Identifier) {
    const def = findVariable(sourceCode, c)?.defs[0];
    if (def?.type !== 'ImportBinding' || def.parent.type !== AST_NODE_TYPES.ImportDeclaration) return undefined;
    if (!FLOW_MODULE.test(def.parent.source.value)) return undefined;
    const spec = def.node;
    if (spec.type !== AST_NODE_TYPES.ImportSpecifier) return undefined;
    const imported = spec.imported.type === AST_NODE_TYPES.Identifier ? spec.imported.name : spec.imported.value;
    return FLOW_EXPORTS.has(imported as FlowExport) ? (imported as FlowExport) : undefined;
  }
  // `import * as flow from './mrtr-flow.js'; flow.elicit(...)`
  if (c.type === AST_NODE_TYPES.MemberExpression && !c.computed && c.property.type === AST_NODE_TYPES.Identifier) {
    const object = unwrap(c.object);
    if (object.type !== AST_NODE_TYPES.Identifier) return undefined;
    const def = findVariable(sourceCode, object)?.defs[0];
    if (def?.type !== 'ImportBinding' || def.node.type !== AST_NODE_TYPES.ImportNamespaceSpecifier) return undefined;
    if (def.parent.type !== AST_NODE_TYPES.ImportDeclaration || !FLOW_MODULE.test(def.parent.source.value)) return undefined;
    return FLOW_EXPORTS.has(c.property.name as FlowExport) ? (c.property.name as FlowExport) : undefined;
  }
  return undefined;
}

/** `elicit(…)`, `sample(…)`, `listRoots()`, `request(…)`, `urlElicitationRequired(…)` of the runtime. */
export function isFlowAsk(sourceCode: Readonly<TSESLint.SourceCode>, call: TSESTree.CallExpression): boolean {
  const name = flowExportOf(sourceCode, call.callee);
  return name !== undefined && FLOW_ASKS.has(name);
}

/** Is `fn` the handler given to `resumable(name, fn)`, inline or by the name it is declared under? */
export function isResumableHandler(sourceCode: Readonly<TSESLint.SourceCode>, fn: FunctionNode): boolean {
  if (isResumableArgument(sourceCode, fn)) return true;
  const name = declaredName(fn);
  if (!name) return false;
  const variable = findVariable(sourceCode, name);
  return (variable?.references ?? []).some((ref) => ref.identifier !== name && isResumableArgument(sourceCode, ref.identifier));
}

function isResumableArgument(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): boolean {
  const call = node.parent;
  return (
    call?.type === AST_NODE_TYPES.CallExpression &&
    call.arguments[1] === node &&
    flowExportOf(sourceCode, call.callee) === 'resumable'
  );
}

/** `function f() {}` → `f`; `const f = () => …` → `f`. */
function declaredName(fn: FunctionNode): TSESTree.Identifier | undefined {
  if (fn.type === AST_NODE_TYPES.FunctionDeclaration) return fn.id ?? undefined;
  const parent = fn.parent;
  return parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === fn && parent.id.type === AST_NODE_TYPES.Identifier
    ? parent.id
    : undefined;
}

/** Is `fn` the thunk of `once(() => E)`: memoized, so it runs once per call, not once per round. */
export function isOnceThunk(sourceCode: Readonly<TSESLint.SourceCode>, fn: TSESTree.Node): boolean {
  const call = fn.parent;
  return (
    (fn.type === AST_NODE_TYPES.ArrowFunctionExpression || fn.type === AST_NODE_TYPES.FunctionExpression) &&
    call?.type === AST_NODE_TYPES.CallExpression &&
    call.arguments[0] === fn &&
    flowExportOf(sourceCode, call.callee) === 'once'
  );
}

/**
 * Is `fn` the getter or setter of `binding(get, set)` (the value a memoized update leaves, restored on
 * replay): the runtime reads it after the thunk and writes back the journalled value on later rounds, the
 * same value on every round, so it is not code that runs where it is written.
 */
export function isBindingAccessor(sourceCode: Readonly<TSESLint.SourceCode>, fn: TSESTree.Node): boolean {
  const call = fn.parent;
  return (
    (fn.type === AST_NODE_TYPES.ArrowFunctionExpression || fn.type === AST_NODE_TYPES.FunctionExpression) &&
    call?.type === AST_NODE_TYPES.CallExpression &&
    call.arguments.includes(fn) &&
    flowExportOf(sourceCode, call.callee) === 'binding'
  );
}

/** Is `node` inside a handler wrapped by `resumable(...)` (at any depth of nested functions)? */
export function isInsideResumable(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (
      (current.type === AST_NODE_TYPES.ArrowFunctionExpression ||
        current.type === AST_NODE_TYPES.FunctionExpression ||
        current.type === AST_NODE_TYPES.FunctionDeclaration) &&
      isResumableHandler(sourceCode, current)
    ) {
      return true;
    }
  }
  return false;
}
