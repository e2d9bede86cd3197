import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { MRTR_API, SPEC_METHODS } from '../src/vocabulary.js';
import type { SiteKind } from '../src/vocabulary.js';
import { createRule } from './create-rule.js';
import { findProperty, propertyName, staticString, unwrap } from './lib/expressions.js';
import { NamedHandlerRoles, REGISTRATION_NAMES, roleAtDefinition } from './lib/handler-registration.js';
import { lastCalleeName } from './lib/callee-name.js';
import { builderName, isInputRequiredCall, isInputRequiredObject, objectLiteral } from './lib/mrtr-shapes.js';
import type { FunctionNode } from './lib/resolve.js';
import { childNodes, localFunction, returnedExpressions } from './lib/resolve.js';

export type Options = [];
export type MessageIds = 'uncheckedCapability';

/** The capability a client must declare for each kind of input request (spec: basic/index.mdx, client/*.mdx). */
const CAPABILITY: Readonly<Record<SiteKind, string>> = { elicitation: 'elicitation', sampling: 'sampling', roots: 'roots' };
/** Where the per-request client capabilities are read: the 2026-07-28 `_meta` key, accessors, the legacy getter. */
const CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
const CAPABILITY_NAMES = /^(getClientCapabilities|clientCapabilities|capabilities|clientCaps|caps)$/;
const MAX_HELPER_DEPTH = 2;

export default createRule<Options, MessageIds>({
  name: 'require-capability-check',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require a hand-built input_required result to read the client capabilities before it asks for elicitation, sampling or roots.',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    messages: {
      uncheckedCapability:
        "This input_required result is built by hand and asks for {{capability}} ('{{key}}') without reading the request's client capabilities: servers MUST NOT send input requests the client did not declare. Read `_meta['io.modelcontextprotocol/clientCapabilities']` (or the SDK's accessor) and fall back when `{{capability}}` is missing, or build the request with `inputRequired.{{builder}}(...)`, which the SDK checks.",
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const { sourceCode } = context;
    // Hand-built requests name their method: a file naming none asks for nothing by hand.
    if (!Object.keys(SPEC_METHODS).some((method) => sourceCode.text.includes(method))) return {};
    const named = new NamedHandlerRoles(sourceCode);
    const results: TSESTree.ObjectExpression[] = [];
    const checkedScopes = new Map<TSESTree.Node, boolean>();

    return {
      CallExpression(node): void {
        const name = lastCalleeName(node.callee);
        if (name !== undefined && REGISTRATION_NAMES.has(name)) named.collect(node);
      },
      ObjectExpression(node): void {
        if (isInputRequiredObject(node) || findProperty(node, 'inputRequests')) results.push(node);
      },
      'Program:exit'(): void {
        for (const result of results) checkResult(result);
      },
    };

    function checkResult(result: TSESTree.ObjectExpression): void {
      // `inputRequired({ ... })` is the SDK's own result: its server checks each request against the capabilities.
      if (result.parent?.type === AST_NODE_TYPES.CallExpression && isInputRequiredCall(result.parent)) return;
      const requests = findProperty(result, 'inputRequests');
      const map = requests ? objectLiteral(sourceCode, requests.value) : undefined;
      if (!map) return;
      for (const entry of entries(map)) {
        const kind = rawRequestKind(entry.value, 0);
        if (kind === undefined) continue;
        if (readsCapabilities(handlerScope(result))) return;
        context.report({
          node: entry.property,
          messageId: 'uncheckedCapability',
          data: { capability: CAPABILITY[kind], key: entry.key, builder: builderFor(kind) },
        });
      }
    }

    /** The entries of an `inputRequests` object, through conditional spreads (`...(cond && { k: … })`). */
    function entries(map: TSESTree.ObjectExpression): { key: string; value: TSESTree.Node; property: TSESTree.Property }[] {
      const found: { key: string; value: TSESTree.Node; property: TSESTree.Property }[] = [];
      for (const prop of map.properties) {
        if (prop.type === AST_NODE_TYPES.SpreadElement) {
          const spread = spreadObject(prop.argument);
          if (spread) found.push(...entries(spread));
          continue;
        }
        const key = propertyName(prop.key, prop.computed);
        if (key !== undefined) found.push({ key, value: prop.value, property: prop });
      }
      return found;
    }

    function spreadObject(node: TSESTree.Node): TSESTree.ObjectExpression | undefined {
      const n = unwrap(node);
      if (n.type === AST_NODE_TYPES.LogicalExpression) return spreadObject(n.right);
      return objectLiteral(sourceCode, n);
    }

    /**
     * A request written by hand: `{ method: 'elicitation/create', params }`, also returned by a local helper
     * (`elicitForm(...)`). An SDK builder (`inputRequired.elicit(...)`) is checked by the SDK: undefined.
     */
    function rawRequestKind(node: TSESTree.Node, depth: number): SiteKind | undefined {
      const n = unwrap(node);
      if (builderName(n) !== undefined) return undefined;
      const object = objectLiteral(sourceCode, n);
      if (object) {
        const method = findProperty(object, 'method');
        const name = method ? staticString(method.value) : undefined;
        return name !== undefined && Object.hasOwn(SPEC_METHODS, name) ? SPEC_METHODS[name] : undefined;
      }
      if (n.type !== AST_NODE_TYPES.CallExpression || depth >= MAX_HELPER_DEPTH) return undefined;
      const helper = localFunction(sourceCode, unwrap(n.callee));
      const returned = helper ? returnedExpressions(helper) : [];
      return returned.length > 0 ? rawRequestKind(returned[0], depth + 1) : undefined;
    }

    /**
     * Where the request being answered is handled: the nearest enclosing function registered as a handler
     * (or the outermost function when none is), where a capability check would be written.
     */
    function handlerScope(node: TSESTree.Node): TSESTree.Node {
      let outermost: TSESTree.Node = sourceCode.ast;
      for (let current = node.parent; current; current = current.parent) {
        if (!isFunction(current)) continue;
        if (roleAtDefinition(current) ?? named.roleOf(current)) return current;
        outermost = current;
      }
      return outermost;
    }

    /** Does the scope read client capabilities, itself or in a local helper it calls? */
    function readsCapabilities(scope: TSESTree.Node, depth = 0): boolean {
      const cached = checkedScopes.get(scope);
      if (cached !== undefined) return cached;
      checkedScopes.set(scope, false);
      const found = capabilityRead(scope, depth);
      checkedScopes.set(scope, found);
      return found;
    }

    function capabilityRead(node: TSESTree.Node, depth: number): boolean {
      switch (node.type) {
        case AST_NODE_TYPES.Literal:
          return node.value === CAPABILITIES_META_KEY;
        case AST_NODE_TYPES.TemplateLiteral:
          return node.quasis.some((q) => q.value.cooked?.includes(CAPABILITIES_META_KEY));
        case AST_NODE_TYPES.Identifier:
          return CAPABILITY_NAMES.test(node.name);
        // `{ capabilities: { tools: {} } }` declares the server's own: only the value of such a key is looked at.
        case AST_NODE_TYPES.Property:
          if (!node.computed && node.parent.type === AST_NODE_TYPES.ObjectExpression) return capabilityRead(node.value, depth);
          break;
        case AST_NODE_TYPES.CallExpression: {
          const helper = depth < MAX_HELPER_DEPTH ? localFunction(sourceCode, unwrap(node.callee)) : undefined;
          if (helper && readsCapabilities(helper, depth + 1)) return true;
          break;
        }
        default:
          break;
      }
      return childNodes(node).some((child) => capabilityRead(child, depth));
    }
  },
});

function builderFor(kind: SiteKind): string {
  if (kind === 'elicitation') return MRTR_API.builders.elicitation;
  return kind === 'sampling' ? MRTR_API.builders.sampling : MRTR_API.builders.roots;
}

function isFunction(node: TSESTree.Node): node is FunctionNode {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

