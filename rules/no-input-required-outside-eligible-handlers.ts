import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { INELIGIBLE_ENTRY_POINTS, MRTR_API } from '../src/vocabulary.js';
import { lastCalleeName } from './lib/callee-name.js';
import { NamedHandlerRoles, REGISTRATION_NAMES, enclosingRole, roleOfMethodKey } from './lib/handler-registration.js';
import { propertyName } from './lib/expressions.js';
import { isInputRequiredCall, isInputRequiredObject } from './lib/mrtr-shapes.js';
import { createRule } from './create-rule.js';

export type Options = [];
export type MessageIds = 'ineligibleHandler';

export default createRule<Options, MessageIds>({
  name: 'no-input-required-outside-eligible-handlers',
  meta: {
    type: 'problem',
    docs: {
      description: 'Allow `inputRequired(...)` only in tools/call, prompts/get and resources/read handlers.',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    messages: {
      ineligibleHandler:
        'Only tools/call, prompts/get and resources/read handlers may return input_required; this {{handler}} cannot (the server answers -32603). Ask for the input in the tool, prompt or resource read that needs it, or use a default here.',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    // Plain-text prefilter: most files never build an input-required value.
    const { text } = context.sourceCode;
    if (!text.includes(MRTR_API.inputRequired) && !text.includes(MRTR_API.resultType)) return {};
    const named = new NamedHandlerRoles(context.sourceCode);
    // Decided at the end: a handler may be registered by name below its definition.
    const candidates: TSESTree.Node[] = [];
    return {
      CallExpression(node): void {
        const name = lastCalleeName(node.callee);
        if (name === undefined) return;
        if (REGISTRATION_NAMES.has(name)) named.collect(node);
        else if (name === MRTR_API.inputRequired && isInputRequiredCall(node)) candidates.push(node);
      },
      AssignmentExpression(node): void {
        const target = lastCalleeName(node.left);
        if (target === undefined) return;
        // Lifecycle hooks, and method-keyed maps: `handlers['tools/list'] = listTools`.
        if (INELIGIBLE_ENTRY_POINTS.lifecycleHooks.includes(target) || roleOfMethodKey(target)) named.collect(node);
      },
      Property(node): void {
        // `{ 'tools/list': listTools }`: a handler held by name in a method-keyed dispatch object.
        if (node.value.type === AST_NODE_TYPES.Identifier && roleOfMethodKey(propertyName(node.key, node.computed))) named.collect(node);
      },
      ObjectExpression(node): void {
        if (isInputRequiredObject(node)) candidates.push(node);
      },
      'Program:exit'(): void {
        for (const node of candidates) {
          const role = enclosingRole(node, named);
          if (role && !role.eligible) context.report({ node, messageId: 'ineligibleHandler', data: { handler: role.serves } });
        }
      },
    };
  },
});
