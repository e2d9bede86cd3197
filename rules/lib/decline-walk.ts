/**
 * "If the client declines this question, does the handler ask it again?"
 *
 * A small abstract interpretation over a handler's statements under one hypothesis: the answer to
 * `key` is a decline (`{ action: 'decline' }`, no content). Conditions that depend only on that answer
 * are decided (`!acceptedContent(...)` is true, `answer.action !== 'accept'` is true, `answer.kind`
 * is `'elicit'`); every other condition is unknown and both arms are walked, but a re-ask found under
 * an unknown condition is not certain and is not reported. Throws end a path.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import type { ReadForm } from './elicit-answers.js';
import { memberPath, propertyName, staticString, unwrap, unwrapAwait } from './expressions.js';
import { inputRequestKeys, inputRequiredSpec, isInputRequiredCall, isInputRequiredObject } from './mrtr-shapes.js';
import type { FunctionNode } from './resolve.js';
import { findVariable, localFunction } from './resolve.js';

export interface DeclineHypothesis {
  readonly key: string;
  /** Read nodes of this key (reader calls, raw member reads) and their form. */
  readonly reads: ReadonlyMap<TSESTree.Node, ReadForm>;
  /** Locals holding a read of this key, or its destructured `action`. */
  readonly bindings: ReadonlyMap<TSESLint.Scope.Variable, ReadForm | 'action'>;
  /** Is this expression the responses map (`ctx.mcpReq.inputResponses`, an alias)? A declined answer is present in it. */
  readonly isResponses?: (node: TSESTree.Node) => boolean;
  /** The answer assumed: a decline (the default) or a cancel; both carry no content. */
  readonly action?: 'decline' | 'cancel';
}

export interface DeclineOutcome {
  /** The first certain `return` that asks the same question again. */
  readonly reask?: Reask;
  /** The first `return` certainly reached on a decline (a re-ask or a result of its own). */
  readonly firstReturn?: TSESTree.ReturnStatement | TSESTree.Expression;
  /** Was the answer's presence tested (`'confirm' in responses`, `Object.hasOwn(...)`) on the way? */
  readonly presenceChecked: boolean;
}

export interface Reask {
  /** The `return` that asks the same question again. */
  readonly node: TSESTree.ReturnStatement | TSESTree.Expression;
  /** The statement of the handler body that contains it (where a guard can go in front). */
  readonly statement: TSESTree.Statement;
}

type Value =
  | { t: 'str'; v: string }
  | { t: 'bool'; v: boolean }
  | { t: 'num'; v: number }
  | { t: 'undef' }
  | { t: 'null' }
  | { t: 'obj'; form: ReadForm }
  | { t: 'unknown' };

type Truth = true | false | undefined;
type Flow = 'exits' | 'continues';

const UNKNOWN: Value = { t: 'unknown' };
const MAX_HELPER_DEPTH = 4;

/** The first certain re-ask of `hypothesis.key` on a decline in `fn`, if any. */
export function findReaskOnDecline(
  sourceCode: Readonly<TSESLint.SourceCode>,
  fn: FunctionNode,
  hypothesis: DeclineHypothesis,
): Reask | undefined {
  return walkDecline(sourceCode, fn, hypothesis).reask;
}

/** Where a decline of `hypothesis.key` certainly leads in `fn`: a re-ask, a result of its own, or nothing certain. */
export function walkDecline(
  sourceCode: Readonly<TSESLint.SourceCode>,
  fn: FunctionNode,
  hypothesis: DeclineHypothesis,
): DeclineOutcome {
  let found: Reask | undefined;
  let firstReturn: TSESTree.ReturnStatement | TSESTree.Expression | undefined;
  let presenceChecked = false;
  const action = hypothesis.action ?? 'decline';

  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) {
    const reask = isReask(fn.body, 0) ? { node: fn.body, statement: fn.body as unknown as TSESTree.Statement } : undefined;
    return { reask, firstReturn: fn.body, presenceChecked };
  }
  walkList(fn.body.body, true, undefined, 0);
  return { reask: found, firstReturn, presenceChecked };

  function walkList(statements: readonly TSESTree.Statement[], certain: boolean, top: TSESTree.Statement | undefined, depth: number): Flow {
    for (const statement of statements) {
      if (walk(statement, certain, top ?? statement, depth) === 'exits') return 'exits';
    }
    return 'continues';
  }

  function walk(statement: TSESTree.Statement, certain: boolean, top: TSESTree.Statement, depth: number): Flow {
    switch (statement.type) {
      case AST_NODE_TYPES.ReturnStatement:
        if (certain && depth === 0 && !firstReturn) firstReturn = statement;
        if (certain && !found && statement.argument && isReask(statement.argument, depth)) {
          found = { node: statement, statement: top };
        }
        return 'exits';
      case AST_NODE_TYPES.ThrowStatement:
        return 'exits';
      case AST_NODE_TYPES.BlockStatement:
        return walkList(statement.body, certain, top, depth);
      case AST_NODE_TYPES.IfStatement: {
        const test = truth(statement.test);
        if (test === true) return walk(statement.consequent, certain, top, depth);
        if (test === false) return statement.alternate ? walk(statement.alternate, certain, top, depth) : 'continues';
        const a = walk(statement.consequent, false, top, depth);
        const b = statement.alternate ? walk(statement.alternate, false, top, depth) : 'continues';
        return a === 'exits' && b === 'exits' ? 'exits' : 'continues';
      }
      case AST_NODE_TYPES.SwitchStatement:
        return walkSwitch(statement, certain, top, depth);
      case AST_NODE_TYPES.TryStatement: {
        const flow = walk(statement.block, certain, top, depth);
        if (statement.handler) walk(statement.handler.body, false, top, depth);
        if (statement.finalizer && walk(statement.finalizer, certain, top, depth) === 'exits') return 'exits';
        return statement.handler ? 'continues' : flow;
      }
      case AST_NODE_TYPES.ForStatement:
      case AST_NODE_TYPES.ForInStatement:
      case AST_NODE_TYPES.ForOfStatement:
      case AST_NODE_TYPES.WhileStatement:
      case AST_NODE_TYPES.DoWhileStatement:
        walk(statement.body, false, top, depth);
        return 'continues';
      case AST_NODE_TYPES.LabeledStatement:
        return walk(statement.body, certain, top, depth);
      default:
        return 'continues';
    }
  }

  function walkSwitch(statement: TSESTree.SwitchStatement, certain: boolean, top: TSESTree.Statement, depth: number): Flow {
    const discriminant = value(statement.discriminant);
    const start = discriminant.t === 'str' ? statement.cases.findIndex((c) => c.test && sameValue(value(c.test), discriminant) === true) : -1;
    const entry = start >= 0 ? start : discriminant.t === 'str' ? statement.cases.findIndex((c) => !c.test) : -1;
    if (entry < 0) {
      for (const c of statement.cases) walkList(c.consequent, false, top, depth);
      return 'continues';
    }
    // fall through from the matching case until a break or an exit
    for (const c of statement.cases.slice(entry)) {
      for (const s of c.consequent) {
        if (s.type === AST_NODE_TYPES.BreakStatement) return 'continues';
        if (walk(s, certain, top, depth) === 'exits') return 'exits';
      }
    }
    return 'continues';
  }

  /** Does returning this ask `key` again: `inputRequired({ inputRequests: { key } })`, or a local helper that does? */
  function isReask(expression: TSESTree.Node, depth: number): boolean {
    const e = unwrapAwait(expression);
    if (e.type === AST_NODE_TYPES.ObjectExpression && isInputRequiredObject(e)) return asksKey(e);
    if (e.type === AST_NODE_TYPES.ConditionalExpression) {
      const test = truth(e.test);
      if (test === undefined) return false;
      return isReask(test ? e.consequent : e.alternate, depth);
    }
    if (e.type !== AST_NODE_TYPES.CallExpression) return false;
    const call: TSESTree.CallExpression = e;
    // (a cast, so the type guard does not narrow `call` away below)
    if (isInputRequiredCall(call as TSESTree.Node)) return asksKey(inputRequiredSpec(sourceCode, call));
    if (depth < MAX_HELPER_DEPTH) {
      const helper = localFunction(sourceCode, call.callee);
      if (!helper) return false;
      if (helper.body.type !== AST_NODE_TYPES.BlockStatement) return isReask(helper.body, depth + 1);
      const before = found;
      found = undefined;
      walkList(helper.body.body, true, undefined, depth + 1);
      const asks = found !== undefined;
      found = before;
      return asks;
    }
    return false;
  }

  /** Unknown question keys count as the same question: the rule cannot tell them apart. */
  function asksKey(spec: TSESTree.ObjectExpression | undefined): boolean {
    if (!spec) return true;
    const keys = inputRequestKeys(sourceCode, spec);
    return keys === undefined || keys.includes(hypothesis.key);
  }

  function truth(node: TSESTree.Node): Truth {
    const n = unwrap(node);
    if (n.type === AST_NODE_TYPES.LogicalExpression && n.operator !== '??') {
      const left = truth(n.left);
      const right = truth(n.right);
      if (n.operator === '&&') return left === false || right === false ? false : left === true && right === true ? true : undefined;
      return left === true || right === true ? true : left === false && right === false ? false : undefined;
    }
    if (n.type === AST_NODE_TYPES.UnaryExpression && n.operator === '!') {
      const inner = truth(n.argument);
      return inner === undefined ? undefined : !inner;
    }
    return truthOfValue(value(n));
  }

  function value(node: TSESTree.Node): Value {
    const n = unwrapAwait(node);
    const form = hypothesis.reads.get(n) ?? hypothesis.reads.get(node);
    if (form) return readValue(form);
    switch (n.type) {
      case AST_NODE_TYPES.Literal:
        if (typeof n.value === 'string') return { t: 'str', v: n.value };
        if (typeof n.value === 'boolean') return { t: 'bool', v: n.value };
        if (typeof n.value === 'number') return { t: 'num', v: n.value };
        return n.value === null ? { t: 'null' } : UNKNOWN;
      case AST_NODE_TYPES.TemplateLiteral:
        return n.expressions.length === 0 ? { t: 'str', v: n.quasis[0].value.cooked ?? '' } : UNKNOWN;
      case AST_NODE_TYPES.Identifier: {
        if (n.name === 'undefined') return { t: 'undef' };
        const variable = findVariable(sourceCode, n);
        const bound = variable ? hypothesis.bindings.get(variable) : undefined;
        if (bound === 'action') return { t: 'str', v: action };
        return bound ? readValue(bound) : UNKNOWN;
      }
      case AST_NODE_TYPES.MemberExpression: {
        const object = value(n.object);
        if (object.t === 'undef' || object.t === 'null') return { t: 'undef' };
        if (object.t !== 'obj') return UNKNOWN;
        const name = propertyName(n.property, n.computed);
        if (name === 'action') return { t: 'str', v: action };
        if (name === 'kind' && object.form === 'view') return { t: 'str', v: 'elicit' };
        if (name === 'content') return { t: 'undef' };
        return UNKNOWN;
      }
      case AST_NODE_TYPES.UnaryExpression: {
        if (n.operator !== '!') return UNKNOWN;
        const inner = truth(n.argument);
        return inner === undefined ? UNKNOWN : { t: 'bool', v: !inner };
      }
      case AST_NODE_TYPES.BinaryExpression: {
        // `'confirm' in responses`: a declined answer is present.
        if (n.operator === 'in') return isPresenceOf(n.left, n.right) ? { t: 'bool', v: true } : UNKNOWN;
        if (!['===', '!==', '==', '!='].includes(n.operator)) return UNKNOWN;
        const same = sameValue(value(n.left), value(n.right), n.operator.length === 2);
        if (same === undefined) return UNKNOWN;
        return { t: 'bool', v: n.operator.startsWith('=') ? same : !same };
      }
      case AST_NODE_TYPES.LogicalExpression: {
        const left = value(n.left);
        if (n.operator === '??') {
          if (left.t === 'undef' || left.t === 'null') return value(n.right);
          return left.t === 'unknown' ? UNKNOWN : left;
        }
        const t = truthOfValue(left);
        if (t === undefined) return UNKNOWN;
        return n.operator === '&&' ? (t ? value(n.right) : left) : t ? left : value(n.right);
      }
      case AST_NODE_TYPES.ConditionalExpression: {
        const t = truth(n.test);
        return t === undefined ? UNKNOWN : value(t ? n.consequent : n.alternate);
      }
      case AST_NODE_TYPES.CallExpression: {
        // `Object.hasOwn(responses, 'confirm')`, `responses.hasOwnProperty('confirm')`
        const path = memberPath(n.callee);
        if (path.join('.') === 'Object.hasOwn' && n.arguments.length === 2 && isPresenceOf(n.arguments[1], n.arguments[0])) {
          return { t: 'bool', v: true };
        }
        if (path.at(-1) === 'hasOwnProperty' && n.callee.type === AST_NODE_TYPES.MemberExpression && n.arguments[0] && isPresenceOf(n.arguments[0], n.callee.object)) {
          return { t: 'bool', v: true };
        }
        return UNKNOWN;
      }
      default:
        return UNKNOWN;
    }
  }

  /** Is `key in map` a presence test of this answer? */
  function isPresenceOf(key: TSESTree.Node, map: TSESTree.Node): boolean {
    const present = staticString(key) === hypothesis.key && hypothesis.isResponses?.(map) === true;
    if (present) presenceChecked = true;
    return present;
  }
}

/** What a read of the declined answer evaluates to. */
function readValue(form: ReadForm): Value {
  // acceptedContent is undefined for anything but a valid accept
  return form === 'content' ? { t: 'undef' } : { t: 'obj', form };
}

function truthOfValue(v: Value): Truth {
  switch (v.t) {
    case 'str':
      return v.v !== '';
    case 'bool':
      return v.v;
    case 'num':
      return v.v !== 0;
    case 'undef':
    case 'null':
      return false;
    case 'obj':
      return true;
    default:
      return undefined;
  }
}

/** Equality of two abstract values; undefined when it cannot be decided. */
function sameValue(a: Value, b: Value, loose = false): boolean | undefined {
  if (a.t === 'unknown' || b.t === 'unknown') return undefined;
  const nullish = (v: Value): boolean => v.t === 'undef' || v.t === 'null';
  if (nullish(a) || nullish(b)) return loose ? nullish(a) && nullish(b) : a.t === b.t;
  if (a.t === 'obj' || b.t === 'obj') return a.t === 'obj' && b.t === 'obj' ? undefined : false;
  return a.t === b.t && (a as { v: unknown }).v === (b as { v: unknown }).v;
}
