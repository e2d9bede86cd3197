/**
 * The TSESTree adapter for `matchLegacyCall` (src/vocabulary.ts): turns a call into the AST-free
 * `CallShape` the analyzer and the transforms also build, so all three agree on what a legacy site is.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { CallShape, LegacyCallMatch } from '../../src/vocabulary.js';
import { LEGACY_METHODS, URL_ELICITATION_ERROR, matchLegacyCall } from '../../src/vocabulary.js';
import { lastCalleeName } from './callee-name.js';
import { findProperty, memberPath, staticString, unwrap } from './expressions.js';
import { findVariable, singleValueOf } from './resolve.js';

const LEGACY_NAMES = new Set(LEGACY_METHODS.map((m) => m.name));

/** The legacy request a call makes, or undefined. */
export function legacyCallOf(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
): LegacyCallMatch | undefined {
  // Cheap exit before building anything: most calls are not named like a legacy method (a bare
  // name may still alias one: `const ask = ctx.mcpReq.elicitInput`).
  const name = lastCalleeName(call.callee);
  const bare = unwrap(call.callee).type === AST_NODE_TYPES.Identifier;
  if (!bare && (name === undefined || !LEGACY_NAMES.has(name))) return undefined;
  return matchLegacyCall(callShapeOf(sourceCode, call));
}

/** `throw new UrlElicitationRequiredError(...)` (also `new errors.UrlElicitationRequiredError(...)`). */
export function isUrlElicitationThrow(node: TSESTree.ThrowStatement): boolean {
  const thrown = unwrap(node.argument);
  if (thrown.type !== AST_NODE_TYPES.NewExpression) return false;
  const path = memberPath(thrown.callee);
  return path[path.length - 1] === URL_ELICITATION_ERROR;
}

export function callShapeOf(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
  written: readonly string[] = memberPath(call.callee),
): CallShape {
  const [first, second] = call.arguments;
  const receiverNode = receiverOf(call.callee);
  const bare = unwrap(call.callee);
  // A bare callee that aliases a legacy method is judged by the chain it was taken from, like the analyzer does.
  const alias = bare.type === AST_NODE_TYPES.Identifier ? aliasedChain(sourceCode, bare) : undefined;
  return {
    callee: alias ?? written,
    methodLiteral: first ? methodLiteralOf(sourceCode, first) : undefined,
    resultSchemaName: second ? lastName(second) : undefined,
    receiverIsServer: receiverNode ? isServerInstance(sourceCode, receiverNode) : false,
    bareFromLegacyReceiver:
      bare.type === AST_NODE_TYPES.Identifier && (alias !== undefined || isFromLegacyReceiver(sourceCode, bare)),
  };
}

/**
 * `const ask = ctx.mcpReq.elicitInput` (or `.bind(...)` of it) → `['ctx','mcpReq','elicitInput']`;
 * `const { sendRequest } = extra` → `['extra','sendRequest']`.
 */
function aliasedChain(sourceCode: Readonly<TSESLint.SourceCode>, id: TSESTree.Identifier): string[] | undefined {
  const def = findVariable(sourceCode, id)?.defs[0];
  if (def?.type !== 'Variable' || !def.node.init) return undefined;
  const init = unwrap(def.node.init);
  if (def.node.id.type === AST_NODE_TYPES.Identifier) {
    const target =
      init.type === AST_NODE_TYPES.CallExpression && memberPath(init.callee).at(-1) === 'bind'
        ? receiverOf(init.callee)
        : init;
    if (target?.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const chain = memberPath(target);
    return LEGACY_NAMES.has(chain.at(-1) ?? '') ? chain : undefined;
  }
  if (def.node.id.type === AST_NODE_TYPES.ObjectPattern) {
    for (const prop of def.node.id.properties) {
      if (prop.type !== AST_NODE_TYPES.Property || prop.value !== def.name) continue;
      const key = prop.computed ? undefined : prop.key.type === AST_NODE_TYPES.Identifier ? prop.key.name : staticString(prop.key);
      if (key && LEGACY_NAMES.has(key)) return [...memberPath(init), key];
    }
  }
  return undefined;
}

/** The object a method is called on (`a.b.c(...)` → `a.b`), or undefined for a bare call. */
function receiverOf(callee: TSESTree.Node): TSESTree.Node | undefined {
  const c = unwrap(callee);
  return c.type === AST_NODE_TYPES.MemberExpression ? unwrap(c.object) : undefined;
}

/**
 * The request's `method` when statically known: `{ method: 'roots/list' }`, through a local const
 * holding the request object, and a `method` value read from a local const object (`M.elicit`).
 */
function methodLiteralOf(sourceCode: Readonly<TSESLint.SourceCode>, arg: TSESTree.Node): string | undefined {
  const request = constValue(sourceCode, arg);
  if (request?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const method = findProperty(request, 'method');
  if (!method) return undefined;
  return stringValue(sourceCode, method.value);
}

function stringValue(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string | undefined {
  const direct = staticString(node);
  if (direct !== undefined) return direct;
  const n = unwrap(node);
  if (n.type === AST_NODE_TYPES.Identifier) {
    const value = constValue(sourceCode, n);
    return value && value !== n ? staticString(value) : undefined;
  }
  if (n.type === AST_NODE_TYPES.MemberExpression && !n.computed && n.property.type === AST_NODE_TYPES.Identifier) {
    const holder = constValue(sourceCode, n.object);
    if (holder?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    const prop = findProperty(holder, n.property.name);
    return prop ? staticString(prop.value) : undefined;
  }
  return undefined;
}

/** Follows identifiers to the initialiser of a `const` (a few hops at most). */
function constValue(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): TSESTree.Node | undefined {
  let current = unwrap(node);
  for (let hops = 0; hops < 4 && current.type === AST_NODE_TYPES.Identifier; hops++) {
    const value = singleValueOf(sourceCode, current);
    if (!value) return undefined;
    current = unwrap(value);
  }
  return current;
}

/** `ElicitResultSchema` or `types.ElicitResultSchema` → `ElicitResultSchema`. */
function lastName(node: TSESTree.Node): string | undefined {
  const path = memberPath(node);
  const last = path[path.length - 1];
  return last === '?' ? undefined : last;
}

/**
 * A receiver that is a protocol `Server` although not named `server`: a variable (or class field)
 * initialised with `new Server(...)` or annotated `: Server`.
 */
function isServerInstance(sourceCode: Readonly<TSESLint.SourceCode>, receiver: TSESTree.Node): boolean {
  if (receiver.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, receiver);
    const def = variable?.defs[0];
    if (!def) return false;
    if (def.type === 'Variable') {
      return isServerConstruction(def.node.init) || isServerAnnotation(def.node.id.typeAnnotation);
    }
    if (def.type === 'Parameter' && def.name.type === AST_NODE_TYPES.Identifier) {
      return isServerAnnotation(def.name.typeAnnotation);
    }
    return false;
  }
  if (
    receiver.type === AST_NODE_TYPES.MemberExpression &&
    receiver.object.type === AST_NODE_TYPES.ThisExpression &&
    !receiver.computed &&
    receiver.property.type === AST_NODE_TYPES.Identifier
  ) {
    const field = classField(receiver, receiver.property.name);
    return field !== undefined && (isServerConstruction(field.value) || isServerAnnotation(field.typeAnnotation));
  }
  return false;
}

function isServerConstruction(init: TSESTree.Node | null | undefined): boolean {
  if (!init) return false;
  const n = unwrap(init);
  if (n.type !== AST_NODE_TYPES.NewExpression) return false;
  const path = memberPath(n.callee);
  return path[path.length - 1] === 'Server';
}

function isServerAnnotation(annotation: TSESTree.TSTypeAnnotation | undefined): boolean {
  const type = annotation?.typeAnnotation;
  if (type?.type !== AST_NODE_TYPES.TSTypeReference) return false;
  const name = type.typeName;
  if (name.type === AST_NODE_TYPES.Identifier) return name.name === 'Server';
  return name.type === AST_NODE_TYPES.TSQualifiedName && name.right.name === 'Server';
}

function classField(node: TSESTree.Node, name: string): TSESTree.PropertyDefinition | undefined {
  let current = node.parent;
  while (current && current.type !== AST_NODE_TYPES.ClassBody) current = current.parent;
  if (!current) return undefined;
  for (const member of current.body) {
    if (
      member.type === AST_NODE_TYPES.PropertyDefinition &&
      !member.computed &&
      member.key.type === AST_NODE_TYPES.Identifier &&
      member.key.name === name
    ) {
      return member;
    }
  }
  return undefined;
}

/**
 * A bare callee destructured off a legacy receiver: `const { elicitInput } = ctx.mcpReq`,
 * `const { sendRequest } = extra`, or a parameter pattern `(args, { mcpReq: { send } }) => …`.
 */
function isFromLegacyReceiver(sourceCode: Readonly<TSESLint.SourceCode>, id: TSESTree.Identifier): boolean {
  const variable = findVariable(sourceCode, id);
  const def = variable?.defs[0];
  if (!def || (def.type !== 'Variable' && def.type !== 'Parameter')) return false;
  // A legacy method passed on as an argument: `async function ask(send) { await send({ method: … }) }`.
  if (def.type === 'Parameter' && def.name === def.node.params.find((p) => p === def.name)) return true;
  // Walk from the binding up through the pattern, collecting the keys it was read through.
  const keys: string[] = [];
  let node: TSESTree.Node | undefined = def.name;
  while (node?.parent) {
    const parent: TSESTree.Node = node.parent;
    if (parent.type === AST_NODE_TYPES.Property && parent.value === node) {
      node = parent;
      continue;
    }
    if (parent.type === AST_NODE_TYPES.ObjectPattern) {
      const grand: TSESTree.Node | undefined = parent.parent;
      if (grand?.type === AST_NODE_TYPES.Property && grand.value === parent) {
        const key = grand.computed ? undefined : grand.key.type === AST_NODE_TYPES.Identifier ? grand.key.name : undefined;
        if (key) keys.unshift(key);
        node = grand;
        continue;
      }
      if (grand?.type === AST_NODE_TYPES.VariableDeclarator && grand.id === parent && grand.init) {
        return keys.length === 0 ? receiverLooksLegacy(memberPath(grand.init), id.name) : keys.includes('mcpReq');
      }
      // A destructured handler parameter: `{ mcpReq: { send } }` or v1 `{ sendRequest }`.
      return keys.length === 0 ? id.name === 'sendRequest' : keys[keys.length - 1] === 'mcpReq';
    }
    return false;
  }
  return false;
}

function receiverLooksLegacy(path: readonly string[], name: string): boolean {
  const last = path[path.length - 1];
  if (last === 'mcpReq') return true;
  if (last === 'server') return name === 'elicitInput';
  // v1 `extra` has any name; `sendRequest` is the distinctive one.
  return name === 'sendRequest';
}
