/**
 * A URL-mode elicitation answered `accept` means the user agreed to open the URL, not that the
 * out-of-band step (sign-in, payment, key entry) happened: the spec leaves it to the server to decide
 * from its own record whether the step completed, and to ask again while it has not. This rule follows
 * what runs when the answer is `accept` and reports a handler that goes on to its result with no check
 * on the way: no branch on anything but the answer, no awaited call.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { MRTR_API } from '../src/vocabulary.js';
import { createRule } from './create-rule.js';
import type { AnswerRead } from './lib/elicit-answers.js';
import { answerEscapes, awaitedAnswer, rawRead, readerCall } from './lib/elicit-answers.js';
import { lastCalleeName } from './lib/callee-name.js';
import { findProperty, outermostWrapper, propertyName, staticString, unwrap } from './lib/expressions.js';
import { builderName, isInputRequiredCall, isInputRequiredObject, objectLiteral } from './lib/mrtr-shapes.js';
import { childNodes } from './lib/resolve.js';

export type Options = [];
export type MessageIds = 'trustedUrlAccept';

/** Calls that ask in place and return the answer: legacy `elicitInput(...)`, the port runtime's `elicit(...)`. */
const AWAITED_ASKS = new Set(['elicitInput', 'elicit']);
const URL_BUILDER = MRTR_API.builders.elicitationUrl;

type Truth = boolean | undefined;
/** What runs when the answer is `accept`: statements in order, or one expression (an arm of `?:`). */
type AcceptPath = { statements: readonly TSESTree.Statement[]; then: TSESTree.Statement | undefined } | { expression: TSESTree.Node };

export default createRule<Options, MessageIds>({
  name: 'no-trust-url-elicitation-accept',
  meta: {
    type: 'problem',
    docs: {
      description: "Disallow treating a URL-mode elicitation's `accept` as proof that the out-of-band step was done.",
      recommended: 'strict',
      requiresTypeChecking: false,
    },
    messages: {
      trustedUrlAccept:
        "A URL-mode elicitation answered `accept` only means the user agreed to open the URL; the handler goes on to its result (line {{line}}) without checking that the out-of-band step happened. Check your own record of it (the callback's store, the token it left) and ask again with `inputRequired(...)` while it is missing.",
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const { sourceCode } = context;
    const text = sourceCode.text;
    const hasBuilder = text.includes(URL_BUILDER);
    const hasAsk = text.includes("'url'") || text.includes('"url"') || text.includes('`url`');
    if (!hasBuilder && !hasAsk) return {};
    const urlKeys = new Set<string>();
    const reads: AnswerRead[] = [];
    const reported = new Set<TSESTree.Node>();

    return {
      CallExpression(node): void {
        if (hasBuilder && builderName(node) === URL_BUILDER) {
          const key = requestKeyOf(node);
          if (key !== undefined) urlKeys.add(key);
        }
        if (hasBuilder) {
          const read = readerCall(sourceCode, node);
          if (read) reads.push(read);
        }
        if (hasAsk && isUrlModeAsk(node)) check(awaitedAnswer(sourceCode, node) ?? { node, key: '', form: 'answer', responses: node }, node);
      },
      MemberExpression(node): void {
        if (!hasBuilder) return;
        const read = rawRead(sourceCode, node);
        if (read) reads.push(read);
      },
      'Program:exit'(): void {
        for (const read of reads) if (urlKeys.has(read.key)) check(read, read.node);
      },
    };

    /** `inputRequired.elicitUrl(...)` as the value of `key:` in an `inputRequests` object. */
    function requestKeyOf(call: TSESTree.CallExpression): string | undefined {
      const holder = outermostWrapper(call).parent;
      return holder?.type === AST_NODE_TYPES.Property && holder.value === outermostWrapper(call) ? propertyName(holder.key, holder.computed) : undefined;
    }

    /** `elicitInput({ mode: 'url', … })` / `elicit({ mode: 'url', … })` (the params also through a local const). */
    function isUrlModeAsk(call: TSESTree.CallExpression): boolean {
      const name = lastCalleeName(call.callee);
      if (name === undefined || !AWAITED_ASKS.has(name) || !call.arguments[0]) return false;
      const params = objectLiteral(sourceCode, call.arguments[0]);
      const mode = params ? findProperty(params, 'mode') : undefined;
      return mode !== undefined && staticString(mode.value) === 'url';
    }

    function check(read: AnswerRead, at: TSESTree.Node): void {
      if (reported.has(at) || answerEscapes(read)) return;
      const path = acceptPath(read);
      if (!path) return;
      const proceeds = proceedsUnchecked(path, read);
      if (proceeds) {
        reported.add(at);
        context.report({ node: at, messageId: 'trustedUrlAccept', data: { line: String(proceeds.loc.start.line) } });
      }
    }

    /**
     * Where an `accept` goes: decided by the first test on the answer whose outcome for an accept is
     * known; with no test at all, the statements after the ask. Undefined when no test decides.
     */
    function acceptPath(read: AnswerRead): AcceptPath | undefined {
      const holders = answerNodes(read);
      const decisions = new Set<TSESTree.Node>();
      for (const holder of holders) {
        const decision = decisionOf(holder);
        if (decision) decisions.add(decision);
      }
      // The first test in the source decides; one whose outcome is unknown (it also reads something
      // else: a check may be in it) leaves the answer unjudged.
      const [decision] = [...decisions].sort((a, b) => a.range[0] - b.range[0]);
      if (decision?.type === AST_NODE_TYPES.SwitchStatement) return switchArm(decision, holders);
      if (decision?.type === AST_NODE_TYPES.IfStatement || decision?.type === AST_NODE_TYPES.ConditionalExpression) {
        const truth = evaluate(decision.test, holders);
        if (truth === undefined) return undefined;
        if (decision.type === AST_NODE_TYPES.ConditionalExpression) return { expression: truth ? decision.consequent : decision.alternate };
        const arm = truth ? decision.consequent : decision.alternate;
        return { statements: arm ? [arm] : [], then: decision };
      }
      // Never tested: whatever follows runs on an accept too. Only for an answer kept in a local or
      // dropped (a destructured `{ action }` is tested where this rule does not follow it).
      const dropped = outermostWrapper(read.node).parent?.type === AST_NODE_TYPES.ExpressionStatement;
      const statement = read.binding || dropped ? statementOf(read.node) : undefined;
      return statement ? { statements: [], then: statement } : undefined;
    }

    /** The read itself and every later read of the local holding it. */
    function answerNodes(read: AnswerRead): Set<TSESTree.Node> {
      const nodes = new Set<TSESTree.Node>([read.node]);
      for (const ref of read.binding?.references ?? []) if (ref.isRead()) nodes.add(ref.identifier);
      return nodes;
    }

    /** The `if`, `?:` or `switch` whose test a use of the answer is part of. */
    function decisionOf(holder: TSESTree.Node): TSESTree.Node | undefined {
      let current: TSESTree.Node = outermostWrapper(holder);
      for (let parent = current.parent; parent; current = parent, parent = parent.parent) {
        switch (parent.type) {
          case AST_NODE_TYPES.MemberExpression:
            if (parent.object !== current) return undefined;
            continue;
          case AST_NODE_TYPES.ChainExpression:
          case AST_NODE_TYPES.TSAsExpression:
          case AST_NODE_TYPES.TSNonNullExpression:
          case AST_NODE_TYPES.UnaryExpression:
          case AST_NODE_TYPES.BinaryExpression:
          case AST_NODE_TYPES.LogicalExpression:
            continue;
          case AST_NODE_TYPES.IfStatement:
          case AST_NODE_TYPES.ConditionalExpression:
            return parent.test === current ? parent : undefined;
          case AST_NODE_TYPES.SwitchStatement:
            return parent.discriminant === current ? parent : undefined;
          default:
            return undefined;
        }
      }
      return undefined;
    }

    /**
     * The value of a test when the answer is an accept: `.action` is `'accept'`, a view's `.kind` is
     * `'elicit'`, the answer itself is present. Anything else is unknown.
     */
    function evaluate(node: TSESTree.Node, holders: Set<TSESTree.Node>): Truth {
      const n = unwrap(node);
      if (n.type === AST_NODE_TYPES.UnaryExpression && n.operator === '!') {
        const inner = evaluate(n.argument, holders);
        return inner === undefined ? undefined : !inner;
      }
      if (n.type === AST_NODE_TYPES.LogicalExpression && n.operator !== '??') {
        const left = evaluate(n.left, holders);
        const right = evaluate(n.right, holders);
        if (n.operator === '&&') return left === false || right === false ? false : left === true && right === true ? true : undefined;
        return left === true || right === true ? true : left === false && right === false ? false : undefined;
      }
      if (n.type === AST_NODE_TYPES.BinaryExpression && ['===', '!==', '==', '!='].includes(n.operator)) {
        const equal = n.operator === '===' || n.operator === '==';
        for (const [field, other] of [[n.left, n.right], [n.right, n.left]] as const) {
          const actual = fieldValue(field, holders);
          const expected = staticString(other);
          if (actual !== undefined && expected !== undefined) return (actual === expected) === equal;
        }
        return undefined;
      }
      // `if (!auth)` / `if (auth)`: an accepted answer is there.
      return holders.has(n) ? true : undefined;
    }

    /** `'accept'` for `answer.action`, `'elicit'` for `view.kind`: the fields an accept fixes. */
    function fieldValue(node: TSESTree.Node, holders: Set<TSESTree.Node>): string | undefined {
      const n = unwrap(node);
      if (n.type !== AST_NODE_TYPES.MemberExpression || !holders.has(unwrap(n.object))) return undefined;
      const field = propertyName(n.property, n.computed);
      if (field === 'action') return 'accept';
      if (field === 'kind') return 'elicit';
      return undefined;
    }

    /** `switch (answer.action) { case 'accept': … }`: the accept case up to its `break`. */
    function switchArm(node: TSESTree.SwitchStatement, holders: Set<TSESTree.Node>): AcceptPath | undefined {
      const value = fieldValue(node.discriminant, holders);
      if (value === undefined) return undefined;
      const start = node.cases.findIndex((c) => c.test !== null && staticString(c.test) === value);
      const from = start >= 0 ? start : node.cases.findIndex((c) => c.test === null);
      if (from < 0) return undefined;
      const statements: TSESTree.Statement[] = [];
      for (const c of node.cases.slice(from)) {
        for (const s of c.consequent) {
          if (s.type === AST_NODE_TYPES.BreakStatement) return { statements, then: node };
          statements.push(s);
        }
      }
      return { statements, then: node };
    }

    /**
     * The first place the accept path goes on to a result with nothing checked on the way: a `return`
     * of something other than a new question or the answer itself. A throw, another question, a branch
     * on anything but the answer, or an awaited call ends the search without a report.
     */
    function proceedsUnchecked(path: AcceptPath, read: AnswerRead): TSESTree.Node | undefined {
      const holders = answerNodes(read);
      if ('expression' in path) return checks(path.expression, holders) ? undefined : returnsResult(path.expression, holders) ? path.expression : undefined;
      const queue: TSESTree.Statement[] = [...path.statements, ...following(path.then)];
      for (const statement of queue) {
        if (statement.type === AST_NODE_TYPES.ReturnStatement) {
          if (!statement.argument || checks(statement.argument, holders)) return undefined;
          return returnsResult(statement.argument, holders) ? statement : undefined;
        }
        if (statement.type === AST_NODE_TYPES.ThrowStatement || checks(statement, holders)) return undefined;
        if (statement.type === AST_NODE_TYPES.BlockStatement) {
          const inner = proceedsUnchecked({ statements: statement.body, then: undefined }, read);
          if (inner) return inner;
          if (exits(statement)) return undefined;
        }
      }
      return undefined;
    }

    /** Statements that run after `statement` (its later siblings, then its block's, up to the function). */
    function following(statement: TSESTree.Statement | undefined): TSESTree.Statement[] {
      const out: TSESTree.Statement[] = [];
      let current: TSESTree.Node | undefined = statement;
      while (current) {
        const parent: TSESTree.Node | undefined = current.parent;
        if (!parent) break;
        if (parent.type === AST_NODE_TYPES.BlockStatement || parent.type === AST_NODE_TYPES.Program) {
          const body = parent.body as TSESTree.Node[];
          out.push(...(body.slice(body.indexOf(current) + 1) as TSESTree.Statement[]));
        } else if (parent.type !== AST_NODE_TYPES.TryStatement && parent.type !== AST_NODE_TYPES.IfStatement) {
          break;
        }
        if (isFunction(parent.parent) || parent.type === AST_NODE_TYPES.Program) break;
        current = parent;
      }
      return out;
    }

    /** A branch on something other than the answer, an awaited call, or a `yield`: a check may be there. */
    function checks(node: TSESTree.Node, holders: Set<TSESTree.Node>): boolean {
      let found = false;
      const visit = (n: TSESTree.Node): void => {
        if (found || isFunction(n)) return;
        switch (n.type) {
          case AST_NODE_TYPES.AwaitExpression:
          case AST_NODE_TYPES.YieldExpression:
          case AST_NODE_TYPES.ForStatement:
          case AST_NODE_TYPES.ForInStatement:
          case AST_NODE_TYPES.ForOfStatement:
          case AST_NODE_TYPES.WhileStatement:
          case AST_NODE_TYPES.DoWhileStatement:
            found = true;
            return;
          case AST_NODE_TYPES.IfStatement:
          case AST_NODE_TYPES.ConditionalExpression:
            if (!onlyAboutAnswer(n.test, holders)) found = true;
            break;
          case AST_NODE_TYPES.SwitchStatement:
            if (!onlyAboutAnswer(n.discriminant, holders)) found = true;
            break;
          case AST_NODE_TYPES.LogicalExpression:
            if (!onlyAboutAnswer(n.left, holders)) found = true;
            break;
          default:
            break;
        }
        for (const child of childNodes(n)) visit(child);
      };
      visit(node);
      return found;
    }

    /** Does a test read nothing but the answer (and literals)? */
    function onlyAboutAnswer(test: TSESTree.Node, holders: Set<TSESTree.Node>): boolean {
      let other = false;
      const visit = (n: TSESTree.Node): void => {
        if (other) return;
        if (holders.has(n)) return;
        if (n.type === AST_NODE_TYPES.Identifier || n.type === AST_NODE_TYPES.CallExpression || n.type === AST_NODE_TYPES.ThisExpression) {
          other = true;
          return;
        }
        for (const child of childNodes(n)) visit(child);
      };
      visit(test);
      return !other;
    }

    /** A result, not another question (`inputRequired(...)`, an `input_required` object) or the answer handed back. */
    function returnsResult(node: TSESTree.Node, holders: Set<TSESTree.Node>): boolean {
      const n = unwrap(node);
      if (isInputRequiredCall(n)) return false;
      if (n.type === AST_NODE_TYPES.ObjectExpression && (isInputRequiredObject(n) || findProperty(n, 'inputRequests'))) return false;
      return !holders.has(n);
    }

    function exits(block: TSESTree.BlockStatement): boolean {
      const last = block.body.at(-1);
      return last?.type === AST_NODE_TYPES.ReturnStatement || last?.type === AST_NODE_TYPES.ThrowStatement;
    }

    function statementOf(node: TSESTree.Node): TSESTree.Statement | undefined {
      let current: TSESTree.Node | undefined = node;
      while (current?.parent && current.parent.type !== AST_NODE_TYPES.BlockStatement && current.parent.type !== AST_NODE_TYPES.Program) {
        if (isFunction(current.parent)) return undefined;
        current = current.parent;
      }
      return current as TSESTree.Statement | undefined;
    }
  },
});

function isFunction(node: TSESTree.Node | undefined): boolean {
  return (
    node?.type === AST_NODE_TYPES.FunctionDeclaration ||
    node?.type === AST_NODE_TYPES.FunctionExpression ||
    node?.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}
