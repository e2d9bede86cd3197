import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import {
  ELIGIBLE_REQUEST_METHODS,
  ELIGIBLE_REQUEST_SCHEMAS,
  MRTR_API,
  REGISTRATION_METHODS,
  SDK_PACKAGES,
  SET_REQUEST_HANDLER,
} from '../src/vocabulary.js';
import { createRule } from './create-rule.js';
import type { DeclineHypothesis, DeclineOutcome, Reask } from './lib/decline-walk.js';
import { walkDecline } from './lib/decline-walk.js';
import type { AnswerRead, ReadForm } from './lib/elicit-answers.js';
import {
  CONTINUATION_ANSWER_READER,
  answerEscapes,
  answerOnlyRendered,
  awaitedAnswer,
  comparedValues,
  fieldUses,
  isResponsesExpression,
  rawRead,
  readerCall,
} from './lib/elicit-answers.js';
import { calleeName, findProperty, memberPath, outermostWrapper, propertyName, staticString, unwrap } from './lib/expressions.js';
import { FLOW_HINT, flowExportOf } from './lib/flow-runtime.js';
import { builderName, objectLiteral } from './lib/mrtr-shapes.js';
import type { FunctionNode } from './lib/resolve.js';
import { enclosingFunction, findVariable, localFunction, returnedExpressions } from './lib/resolve.js';

export type Options = [];
export type MessageIds = 'reaskOnDecline' | 'acceptedContentOnly' | 'missingDeclineCancel' | 'declineIsTruthy' | 'returnOnDeclineOrCancel';

const ELICIT_BUILDERS = new Set<string>([MRTR_API.builders.elicitation, MRTR_API.builders.elicitationUrl]);
/**
 * Texts one of which every answer read contains (`inputResponse` also covers `inputResponses`; the
 * runtime's `elicit(...)` is imported from `./mrtr-flow.js`). A file that only makes legacy
 * `elicitInput` calls has no answer of this rule's to check.
 */
const ANSWER_HINTS = [MRTR_API.inputResponse, MRTR_API.acceptedContent, CONTINUATION_ANSWER_READER, FLOW_HINT];
const INPUT_RESPONSES_FIELD = MRTR_API.inputResponsesPath[MRTR_API.inputResponsesPath.length - 1];
const OTHER_BUILDERS = new Set<string>([MRTR_API.builders.sampling, MRTR_API.builders.roots]);
/** A hand-built `inputRequests` entry (`{ method: 'elicitation/create', params }`) counts as the builder of its method. */
const RAW_ENTRY_BUILDERS: Readonly<Record<string, string>> = {
  'elicitation/create': MRTR_API.builders.elicitation,
  'sampling/createMessage': MRTR_API.builders.sampling,
  'roots/list': MRTR_API.builders.roots,
};

export default createRule<Options, MessageIds>({
  name: 'require-decline-cancel-branches',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require every elicitation answer to handle decline and cancel, and never to ask the same question again after a decline.',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    hasSuggestions: true,
    messages: {
      reaskOnDecline:
        "A decline of '{{key}}' leads back to asking '{{key}}' again (line {{line}}): the client declines, the handler asks, forever. Check `inputResponse(...).action` and return a result for decline and cancel before asking again.",
      acceptedContentOnly:
        "acceptedContent(..., '{{key}}') is undefined for a decline, a cancel and a missing answer alike: also read `inputResponse(responses, '{{key}}')` and handle `action === 'decline'` and `'cancel'`.",
      missingDeclineCancel:
        "The answer to '{{key}}' never checks for {{missing}}: branch on its `action` (for example `if (answer.action !== 'accept') return ...`) so a decline or cancel gets its own result.",
      declineIsTruthy:
        "The answer to '{{key}}' is tested for truth, but it is an ElicitResult object: a decline and a cancel are truthy too, so 'no' is taken as 'yes'. Check `action === 'accept'`, and give decline and cancel a result of their own.",
      returnOnDeclineOrCancel:
        "Return a result when '{{key}}' is declined or cancelled (review the wording).",
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    // Answers are only read through `inputResponse(s)`, `acceptedContent`, the helper's reader or an awaited ask: skip other files.
    if (!ANSWER_HINTS.some((hint) => sourceCode.text.includes(hint))) return {};
    const usesFlow = sourceCode.text.includes(FLOW_HINT);
    const readsRawMap = sourceCode.text.includes(INPUT_RESPONSES_FIELD);
    /** One level of the file's own indentation (two spaces, four, a tab), for suggested code. */
    const indentStep = indentUnit(sourceCode.lines);
    const reads: AnswerRead[] = [];
    /** Question key → which builders ask it in this file (`elicit`, `createMessage`, ...). */
    const builders = new Map<string, Set<string>>();

    return {
      CallExpression(node): void {
        const read = readerCall(sourceCode, node) ?? (asksElicitationInPlace(node) ? awaitedAnswer(sourceCode, node) : undefined);
        if (read) reads.push(read);
      },
      MemberExpression(node): void {
        // Raw reads go through the responses map, whose name is in the text (the cheap test first).
        if (!readsRawMap) return;
        const read = rawRead(sourceCode, node);
        if (read) reads.push(read);
      },
      Property(node): void {
        if (propertyName(node.key, node.computed) !== 'inputRequests') return;
        const requests = objectLiteral(sourceCode, node.value);
        if (requests) collectBuilders(requests);
      },
      'Program:exit'(): void {
        for (const group of groupByFunctionAndKey(reads)) checkAnswer(group.fn, group.key, group.reads);
      },
    };

    /**
     * Which builder asks each key: `inputRequired.elicit(...)`, a hand-built `{ method: 'elicitation/create' }`
     * entry (also returned by a local helper such as `elicitForm(...)`), and entries spread in conditionally
     * (`...(name === undefined && { name: inputRequired.elicit(...) })`).
     */
    function collectBuilders(requests: TSESTree.ObjectExpression): void {
      for (const entry of requests.properties) {
        if (entry.type === AST_NODE_TYPES.SpreadElement) {
          for (const spread of spreadObjects(entry.argument)) collectBuilders(spread);
          continue;
        }
        const key = propertyName(entry.key, entry.computed);
        const builder = builderName(entry.value) ?? rawEntryBuilder(entry.value, 0);
        if (key === undefined || builder === undefined) continue;
        builders.set(key, (builders.get(key) ?? new Set()).add(builder));
      }
    }

    function spreadObjects(node: TSESTree.Node): TSESTree.ObjectExpression[] {
      const n = unwrap(node);
      if (n.type === AST_NODE_TYPES.LogicalExpression) return spreadObjects(n.right);
      if (n.type === AST_NODE_TYPES.ConditionalExpression) return [...spreadObjects(n.consequent), ...spreadObjects(n.alternate)];
      const object = objectLiteral(sourceCode, n);
      return object ? [object] : [];
    }

    function rawEntryBuilder(node: TSESTree.Node, depth: number): string | undefined {
      const n = unwrap(node);
      const object = objectLiteral(sourceCode, n);
      if (object) {
        const method = findProperty(object, 'method');
        const name = method ? staticString(method.value) : undefined;
        return name !== undefined && Object.hasOwn(RAW_ENTRY_BUILDERS, name) ? RAW_ENTRY_BUILDERS[name] : undefined;
      }
      if (n.type !== AST_NODE_TYPES.CallExpression || depth > 2) return undefined;
      const helper = localFunction(sourceCode, unwrap(n.callee));
      const returned = helper ? returnedExpressions(helper) : [];
      return returned.length > 0 ? rawEntryBuilder(returned[0], depth + 1) : undefined;
    }

    /**
     * `await elicit(...)` of the runtime in a ported handler: its answer is an ElicitResult read right here,
     * as a legacy `elicitInput` answer was (legacy calls themselves are `no-legacy-server-requests`' business).
     */
    function asksElicitationInPlace(call: TSESTree.CallExpression): boolean {
      return usesFlow && flowExportOf(sourceCode, call.callee) === 'elicit';
    }

    function checkAnswer(fn: FunctionNode | undefined, key: string, keyReads: AnswerRead[]): void {
      // `(key) => acceptedContent(responses, key)`: a generic accessor; the question is decided by its callers.
      if (keyReads.every((r) => keyIsParameter(r))) return;
      const actionUses = keyReads.flatMap((r) => fieldUses(sourceCode, r, 'action'));
      const kindValues = keyReads.flatMap((r) => fieldUses(sourceCode, r, 'kind').flatMap(comparedValues));
      if (!isElicitation(key, keyReads, actionUses.length > 0, kindValues)) return;

      const first = keyReads[0];
      const declined = fn ? walkDecline(sourceCode, fn, hypothesis(key, keyReads, actionUses)) : undefined;
      const reask = declined?.reask;
      if (reask) {
        context.report({
          node: first.node,
          messageId: 'reaskOnDecline',
          data: { key, line: reask.node.loc.start.line },
          suggest: [...guardSuggestion(fn, key, keyReads, reask), ...viewGuardSuggestion(fn, key, keyReads)],
        });
        return;
      }
      // After a presence check (`'confirm' in responses`), a decline and a cancel each certainly reach a
      // result of their own: the handler refuses them (together, which is a branch for both).
      if (fn && declined && refusesAfterPresenceCheck(fn, declined, hypothesis(key, keyReads, actionUses, 'cancel'))) return;
      if (keyReads.every((r) => r.form === 'content')) {
        context.report({ node: first.node, messageId: 'acceptedContentOnly', data: { key }, suggest: viewGuardSuggestion(fn, key, keyReads) });
        return;
      }
      const compared = new Set(actionUses.flatMap(comparedValues));
      // A result that carries the action (`text: answer.action`) tells the user which one it was.
      const returned = actionUses.some((use) => comparedValues(use).length === 0 && isInReturnedValue(use));
      const declineHandled = returned || compared.has('accept') || compared.has('decline') || compared.has('*');
      const cancelHandled = returned || compared.has('accept') || compared.has('cancel') || compared.has('*');
      if (declineHandled && cancelHandled) return;
      // Handed to a helper (or returned whole): it may branch there; stay quiet rather than guess.
      if (keyReads.some(answerEscapes)) return;
      // Only shown in the result: a decline ends in that reply, and nothing acts on a default.
      if (keyReads.every((r) => r.form !== 'raw' && answerOnlyRendered(sourceCode, r))) return;
      const missing = !declineHandled && !cancelHandled ? 'decline or cancel' : declineHandled ? 'cancel' : 'decline';
      const truthTested = keyReads.find((r) => r.form === 'raw' && isTruthTested(r));
      context.report({
        node: (truthTested ?? first).node,
        messageId: truthTested && !declineHandled && !cancelHandled ? 'declineIsTruthy' : 'missingDeclineCancel',
        data: { key, missing },
        suggest: guardSuggestion(fn, key, keyReads, undefined),
      });
    }

    /** Is the read's key (`reader(responses, key)`) a parameter of the function around it? */
    function keyIsParameter(read: AnswerRead): boolean {
      if (read.node.type !== AST_NODE_TYPES.CallExpression || read.form === 'answer') return false;
      const key = read.node.arguments[1] && unwrap(read.node.arguments[1]);
      return key?.type === AST_NODE_TYPES.Identifier && findVariable(sourceCode, key)?.defs[0]?.type === 'Parameter';
    }

    /** Only elicitation answers have decline/cancel: decide from how the key is asked and read. */
    function isElicitation(key: string, keyReads: AnswerRead[], readsAction: boolean, kindValues: string[]): boolean {
      if (keyReads.some((r) => r.form === 'content' || r.form === 'answer')) return true;
      const asked = builders.get(key);
      if (asked && [...asked].some((b) => ELICIT_BUILDERS.has(b))) return true;
      if (asked && [...asked].every((b) => OTHER_BUILDERS.has(b))) return false;
      if (kindValues.includes('elicit')) return true;
      if (kindValues.length > 0) return false;
      return readsAction;
    }

    function refusesAfterPresenceCheck(fn: FunctionNode, declined: DeclineOutcome, cancel: DeclineHypothesis): boolean {
      if (!declined.presenceChecked || declined.firstReturn === undefined) return false;
      const cancelled = walkDecline(sourceCode, fn, cancel);
      return cancelled.firstReturn !== undefined && cancelled.reask === undefined;
    }

    function hypothesis(key: string, keyReads: AnswerRead[], actionUses: TSESTree.Node[], action: 'decline' | 'cancel' = 'decline'): DeclineHypothesis {
      const readForms = new Map<TSESTree.Node, ReadForm>();
      const bindings = new Map<TSESLint.Scope.Variable, ReadForm | 'action'>();
      for (const r of keyReads) {
        readForms.set(r.node, r.form);
        if (r.binding) bindings.set(r.binding, r.form);
      }
      for (const use of actionUses) {
        if (use.type !== AST_NODE_TYPES.Identifier) continue;
        const variable = findVariable(sourceCode, use);
        if (variable) bindings.set(variable, 'action');
      }
      return { key, reads: readForms, bindings, action, isResponses: (node) => isResponsesExpression(sourceCode, node, 0) };
    }

    /** Is a raw answer (or the local holding it) used as a condition: `if (r)`, `!r`, `r && …`, `r ? … : …`? */
    function isTruthTested(read: AnswerRead): boolean {
      const holders: TSESTree.Node[] = [read.node];
      for (const ref of read.binding?.references ?? []) if (ref.isRead()) holders.push(ref.identifier);
      return holders.some((holder) => {
        const outer = outermostWrapper(holder);
        const parent = outer.parent;
        if (!parent) return false;
        if (parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) return parent.test === outer;
        if (parent.type === AST_NODE_TYPES.UnaryExpression) return parent.operator === '!';
        return parent.type === AST_NODE_TYPES.LogicalExpression && parent.operator !== '??' && parent.left === outer;
      });
    }

    /**
     * In a tool handler that only reads `acceptedContent`: read the view first and return on decline and
     * cancel before the content is used, importing `inputResponse` next to the file's other server imports.
     */
    function viewGuardSuggestion(
      fn: FunctionNode | undefined,
      key: string,
      keyReads: AnswerRead[],
    ): TSESLint.ReportSuggestionArray<MessageIds> {
      if (!fn || !isToolHandler(fn) || keyReads.some((r) => r.form !== 'content')) return [];
      const read = keyReads.find((r) => r.declaration && r.node.type === AST_NODE_TYPES.CallExpression);
      if (!read?.declaration || read.node.type !== AST_NODE_TYPES.CallExpression) return [];
      const declaration = read.declaration;
      const reader = serverImport(MRTR_API.inputResponse);
      if (!reader) return [];
      const name = /^[A-Za-z_$][\w$]*$/.test(key) ? `${key}Answer` : 'answer';
      if (isDeclared(declaration, name)) return [];
      const indent = lineIndent(declaration);
      const keyText = sourceCode.getText(read.node.arguments[1]);
      const text =
        `const ${name} = ${reader.local}(${sourceCode.getText(read.responses)}, ${keyText});\n` +
        `${indent}if (${name}.kind === 'elicit' && ${name}.action !== 'accept') {\n` +
        `${indent}${indentStep}return { content: [{ type: 'text', text: \`Not done (\${${name}.action}).\` }] };\n` +
        `${indent}}\n${indent}`;
      return [
        {
          messageId: 'returnOnDeclineOrCancel',
          data: { key },
          fix: (fixer) => [
            fixer.insertTextBefore(declaration, text),
            ...(reader.addAfter ? [fixer.insertTextAfter(reader.addAfter, `, ${MRTR_API.inputResponse}`)] : []),
          ],
        },
      ];
    }

    /** The local name of a value import from the SDK server package, or where to add it to that import. */
    function serverImport(name: string): { local: string; addAfter?: TSESTree.ImportSpecifier } | undefined {
      for (const statement of sourceCode.ast.body) {
        if (statement.type !== AST_NODE_TYPES.ImportDeclaration || statement.source.value !== SDK_PACKAGES.v2Server) continue;
        if (statement.importKind === 'type') continue;
        const named = statement.specifiers.filter((s): s is TSESTree.ImportSpecifier => s.type === AST_NODE_TYPES.ImportSpecifier);
        const existing = named.find((s) => s.imported.type === AST_NODE_TYPES.Identifier && s.imported.name === name && s.importKind !== 'type');
        if (existing) return { local: existing.local.name };
        if (named.length > 0) return { local: name, addAfter: named[named.length - 1] };
      }
      return undefined;
    }

    /** Is `name` already declared where `node` is, or in a scope around it? */
    function isDeclared(node: TSESTree.Node, name: string): boolean {
      for (let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(node); scope; scope = scope.upper) {
        if (scope.set.has(name)) return true;
      }
      return false;
    }

    /**
     * In a tool handler, with the answer in a local: an early return for decline and cancel, before the
     * re-ask (or right after the read). A suggestion, because the result's wording is the author's call.
     */
    function guardSuggestion(
      fn: FunctionNode | undefined,
      key: string,
      keyReads: AnswerRead[],
      reask: Reask | undefined,
    ): TSESLint.ReportSuggestionArray<MessageIds> {
      if (!fn || !isToolHandler(fn)) return [];
      const bound = keyReads.find((r) => r.binding && r.declaration && r.form !== 'content');
      if (!bound?.declaration || !bound.binding) return unboundGuardSuggestion(fn, key, keyReads);
      const name = bound.binding.name;
      const test =
        bound.form === 'view'
          ? `${name}.kind === 'elicit' && ${name}.action !== 'accept'`
          : `${name}?.action === 'decline' || ${name}?.action === 'cancel'`;
      const anchor = reask && reask.statement.range[0] > bound.declaration.range[1] ? reask.statement : undefined;
      const target = anchor ?? bound.declaration;
      const indent = lineIndent(target);
      const action = `${name}${bound.form === 'view' ? '' : '?'}.action`;
      const guard = `if (${test}) {\n${indent}${indentStep}return { content: [{ type: 'text', text: \`Not done (\${${action}}).\` }] };\n${indent}}`;
      return [
        {
          messageId: 'returnOnDeclineOrCancel',
          data: { key },
          fix: (fixer) =>
            anchor ? fixer.insertTextBefore(anchor, `${guard}\n${indent}`) : fixer.insertTextAfter(bound.declaration!, `\n${indent}${guard}`),
        },
      ];
    }

    /**
     * A raw answer read in place (`inputResponses?.['user_name']`, no local): the guard reads the answer
     * the same way, through the same map and key, before the first statement that reads it.
     */
    function unboundGuardSuggestion(fn: FunctionNode, key: string, keyReads: AnswerRead[]): TSESLint.ReportSuggestionArray<MessageIds> {
      const raw = keyReads.find((r) => r.form === 'raw' && !r.binding);
      if (!raw) return [];
      const statement = statementIn(fn, raw.node);
      if (!statement) return [];
      const indent = lineIndent(statement);
      const read = sourceCode.getText(raw.node);
      // In TypeScript the map is often `Record<string, unknown>`: read the action through a cast so the guard compiles.
      const text = /\.[cm]?tsx?$/.test(context.filename) ? `(${read} as { action?: string } | undefined)` : read;
      const guard =
        `if (${text}?.action === 'decline' || ${text}?.action === 'cancel') {\n` +
        `${indent}${indentStep}return { content: [{ type: 'text', text: \`Not done (\${${text}?.action}).\` }] };\n${indent}}\n${indent}`;
      return [{ messageId: 'returnOnDeclineOrCancel', data: { key }, fix: (fixer) => fixer.insertTextBefore(statement, guard) }];
    }

    /** The statement of `fn`'s body (at any block depth) that contains `node`. */
    function statementIn(fn: FunctionNode, node: TSESTree.Node): TSESTree.Statement | undefined {
      let current: TSESTree.Node = node;
      while (current.parent && current.parent !== fn) {
        if (current.parent.type === AST_NODE_TYPES.BlockStatement || current.parent.type === AST_NODE_TYPES.SwitchCase) {
          return current as TSESTree.Statement;
        }
        current = current.parent;
      }
      return undefined;
    }

    function lineIndent(node: TSESTree.Node): string {
      return /^\s*/.exec(sourceCode.lines[node.loc.start.line - 1])?.[0] ?? '';
    }
  },
});

interface AnswerGroup {
  fn: FunctionNode | undefined;
  key: string;
  reads: AnswerRead[];
}

/** Reads of one key in one function are one answer; the first in source order is where it is reported. */
function groupByFunctionAndKey(reads: readonly AnswerRead[]): AnswerGroup[] {
  const groups = new Map<FunctionNode | undefined, Map<string, AnswerRead[]>>();
  for (const read of reads) {
    const fn = enclosingFunction(read.node);
    const byKey = groups.get(fn) ?? new Map<string, AnswerRead[]>();
    byKey.set(read.key, [...(byKey.get(read.key) ?? []), read]);
    groups.set(fn, byKey);
  }
  const result: AnswerGroup[] = [];
  for (const [fn, byKey] of groups) {
    for (const [key, keyReads] of byKey) {
      result.push({ fn, key, reads: [...keyReads].sort((a, b) => a.node.range[0] - b.node.range[0]) });
    }
  }
  return result;
}

/** `registerTool(name, config, handler)`, `tool(...)`, or `setRequestHandler('tools/call' | CallToolRequestSchema, handler)`; also through `resumable(name, handler)`. */
function isToolHandler(fn: FunctionNode): boolean {
  const wrapper = fn.parent;
  const handler =
    wrapper?.type === AST_NODE_TYPES.CallExpression && calleeName(wrapper) === 'resumable' && wrapper.arguments[1] === fn ? wrapper : fn;
  const call = handler.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[call.arguments.length - 1] !== handler) return false;
  const name = calleeName(call);
  if (name !== undefined && REGISTRATION_METHODS[name] === 'tool') return true;
  if (name !== SET_REQUEST_HANDLER || call.arguments.length < 2) return false;
  const method = staticString(call.arguments[0]) ?? ELIGIBLE_REQUEST_SCHEMAS[memberPath(call.arguments[0]).join('.')];
  return method !== undefined && ELIGIBLE_REQUEST_METHODS[method] === 'tool';
}

/** Is this node part of what a `return` (or an arrow's expression body) gives back? */
function isInReturnedValue(node: TSESTree.Node): boolean {
  let current: TSESTree.Node | undefined = node;
  while (current?.parent) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === AST_NODE_TYPES.ReturnStatement) return true;
    if (parent.type === AST_NODE_TYPES.ArrowFunctionExpression) return parent.body === current;
    if (parent.type === AST_NODE_TYPES.FunctionExpression || parent.type === AST_NODE_TYPES.FunctionDeclaration) return false;
    if (parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.IfStatement) return false;
    current = parent;
  }
  return false;
}

/**
 * The file's indentation step: the first increase of indentation after a line that opens a block
 * (`{`, `(`, `[`); two spaces when the file has none.
 */
function indentUnit(lines: readonly string[]): string {
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!/[{([]\s*$/.test(lines[i])) continue;
    const outer = /^[ \t]*/.exec(lines[i])?.[0] ?? '';
    const inner = /^[ \t]*/.exec(lines[i + 1])?.[0] ?? '';
    if (inner.length > outer.length && inner.startsWith(outer) && lines[i + 1].trim() !== '') return inner.slice(outer.length);
  }
  return '  ';
}
