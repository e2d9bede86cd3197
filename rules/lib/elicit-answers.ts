/**
 * Where handler code reads an answer from `ctx.mcpReq.inputResponses`: the SDK views
 * (`inputResponse`, `acceptedContent`), the continuation helper's `elicitationAnswer`, and raw
 * property reads (`responses.confirm`). Used by require-decline-cancel-branches.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { MRTR_API } from '../../src/vocabulary.js';
import { calleeName, memberPath, outermostWrapper, propertyName, staticString, unwrap } from './expressions.js';
import { findVariable, singleValueOf } from './resolve.js';

/**
 * - `view`: `inputResponse(...)` → `{ kind: 'missing' } | { kind: 'elicit', action, content? } | ...`
 * - `content`: `acceptedContent(...)` → the content of an accept, else undefined (decline = cancel = missing)
 * - `answer`: the continuation helper's `elicitationAnswer(...)` → `{ action, content? }` or undefined when missing/invalid
 * - `raw`: `responses.key` → the bare ElicitResult `{ action, content? }` or undefined
 */
export type ReadForm = 'view' | 'content' | 'answer' | 'raw';

/** The continuation helper (src/runtime/mrtr-continuation.ts) reads an elicitation answer with this. */
export const CONTINUATION_ANSWER_READER = 'elicitationAnswer';

const READERS: Readonly<Record<string, ReadForm>> = {
  [MRTR_API.inputResponse]: 'view',
  [MRTR_API.acceptedContent]: 'content',
  [CONTINUATION_ANSWER_READER]: 'answer',
};

const INPUT_RESPONSES = MRTR_API.inputResponsesPath[MRTR_API.inputResponsesPath.length - 1];

export interface AnswerRead {
  /** The read itself: the reader call, or the member expression. Reports start here. */
  readonly node: TSESTree.CallExpression | TSESTree.MemberExpression;
  readonly key: string;
  readonly form: ReadForm;
  /** The local the read is stored in (`const answer = inputResponse(...)`). */
  readonly binding?: TSESLint.Scope.Variable;
  /** The statement declaring that local. */
  readonly declaration?: TSESTree.VariableDeclaration;
  /** The expression the answers were read from (for suggestions that read them again). */
  readonly responses: TSESTree.Node;
}

/** An answer read made by this call, if it is one. */
export function readerCall(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
): AnswerRead | undefined {
  const name = calleeName(call);
  const form = name !== undefined ? READERS[name] : undefined;
  if (!form || call.arguments.length < 2) return undefined;
  const key = staticString(call.arguments[1]) ?? sourceCode.getText(call.arguments[1]);
  return withBinding(sourceCode, { node: call, key, form, responses: call.arguments[0] });
}

/**
 * The answer of an ask awaited in place: the runtime's `await elicit(...)` in a ported handler, or a
 * legacy `await ctx.mcpReq.elicitInput(...)`. Both are an `ElicitResult` (`{ action, content? }`); the key
 * is the local the answer is stored in.
 */
export function awaitedAnswer(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.CallExpression,
): AnswerRead | undefined {
  const read = withBinding(sourceCode, { node: call, key: '', form: 'answer', responses: call });
  if (!read.binding) return undefined;
  return { ...read, key: read.binding.name };
}

/** A raw read `responses.confirm` / `ctx.mcpReq.inputResponses?.['confirm']`, if this member expression is one. */
export function rawRead(
  sourceCode: Readonly<TSESLint.SourceCode>,
  member: TSESTree.MemberExpression,
): AnswerRead | undefined {
  if (!isResponsesExpression(sourceCode, member.object, 0)) return undefined;
  const key = propertyName(member.property, member.computed);
  if (key === undefined) return undefined;
  return withBinding(sourceCode, { node: member, key, form: 'raw', responses: member.object });
}

/** `ctx.mcpReq.inputResponses`, a destructured `inputResponses`, or a local holding it (`?? {}` allowed). */
export function isResponsesExpression(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, depth: number): boolean {
  const n = unwrap(node);
  if (n.type === AST_NODE_TYPES.LogicalExpression && n.operator === '??') return isResponsesExpression(sourceCode, n.left, depth);
  const path = memberPath(n);
  if (path[path.length - 1] === INPUT_RESPONSES) return true;
  if (n.type !== AST_NODE_TYPES.Identifier || depth > 3) return false;
  const value = singleValueOf(sourceCode, n);
  return value !== undefined && isResponsesExpression(sourceCode, value, depth + 1);
}

function withBinding(sourceCode: Readonly<TSESLint.SourceCode>, read: AnswerRead): AnswerRead {
  const outer = valueArmOf(read.node);
  const parent = outer.parent;
  // `answer = cond ? read : undefined` into a `let` declared earlier (multi-step handlers do this)
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.operator === '=' && parent.right === outer && parent.left.type === AST_NODE_TYPES.Identifier) {
    return { ...read, binding: findVariable(sourceCode, parent.left) };
  }
  if (parent?.type !== AST_NODE_TYPES.VariableDeclarator || parent.init !== outer || parent.id.type !== AST_NODE_TYPES.Identifier) {
    return read;
  }
  const binding = findVariable(sourceCode, parent.id);
  const declaration = parent.parent.type === AST_NODE_TYPES.VariableDeclaration ? parent.parent : undefined;
  return { ...read, binding, declaration };
}

/**
 * The expression a read is the value of, also as an arm of `cond ? read : undefined` or `read ?? x`
 * (the port guards reads with the state step this way).
 */
function valueArmOf(node: TSESTree.Node): TSESTree.Node {
  let current = outermostWrapper(node);
  for (;;) {
    const parent = current.parent;
    const isArm =
      (parent?.type === AST_NODE_TYPES.ConditionalExpression && parent.test !== current) ||
      parent?.type === AST_NODE_TYPES.LogicalExpression;
    if (!isArm || !parent) return current;
    current = outermostWrapper(parent);
  }
}

/**
 * The places a field of a read is available, e.g. for `action`: `answer.action`,
 * `inputResponse(r, k).action`, and the uses of the local of `const { action } = answer`.
 */
export function fieldUses(sourceCode: Readonly<TSESLint.SourceCode>, read: AnswerRead, field: 'action' | 'kind'): TSESTree.Node[] {
  const holders: TSESTree.Node[] = [read.node];
  for (const ref of read.binding?.references ?? []) if (ref.isRead()) holders.push(ref.identifier);
  const uses: TSESTree.Node[] = [];
  for (const holder of holders) {
    const outer = outermostWrapper(holder);
    const parent = outer.parent;
    if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === outer && propertyName(parent.property, parent.computed) === field) {
      uses.push(parent, ...aliasFieldUses(sourceCode, parent, field), ...fieldLocalUses(sourceCode, parent));
    } else if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === outer && parent.id.type === AST_NODE_TYPES.ObjectPattern) {
      for (const prop of parent.id.properties) {
        if (prop.type !== AST_NODE_TYPES.Property || propertyName(prop.key, prop.computed) !== field) continue;
        if (prop.value.type !== AST_NODE_TYPES.Identifier) continue;
        const variable = findVariable(sourceCode, prop.value);
        for (const ref of variable?.references ?? []) if (ref.isRead()) uses.push(ref.identifier);
      }
    }
  }
  return uses;
}

/** `const action = answer?.action`: the reads of that local are uses of the field. */
function fieldLocalUses(sourceCode: Readonly<TSESLint.SourceCode>, use: TSESTree.Node): TSESTree.Node[] {
  const outer = outermostWrapper(use);
  const holder = outer.parent;
  if (holder?.type !== AST_NODE_TYPES.VariableDeclarator || holder.init !== outer || holder.id.type !== AST_NODE_TYPES.Identifier) return [];
  return (findVariable(sourceCode, holder.id)?.references ?? []).filter((ref) => ref.isRead()).map((ref) => ref.identifier);
}

/**
 * `const done = cond ? { action: view.action } : undefined`: the port re-wraps a view this way, so the
 * field of the new local is the same answer's field (one level deep).
 */
function aliasFieldUses(sourceCode: Readonly<TSESLint.SourceCode>, use: TSESTree.Node, field: string): TSESTree.Node[] {
  const property = outermostWrapper(use).parent;
  if (property?.type !== AST_NODE_TYPES.Property || propertyName(property.key, property.computed) !== field) return [];
  const object = property.parent;
  if (object.type !== AST_NODE_TYPES.ObjectExpression) return [];
  const holder = valueArmOf(object).parent;
  if (holder?.type !== AST_NODE_TYPES.VariableDeclarator || holder.id.type !== AST_NODE_TYPES.Identifier) return [];
  const uses: TSESTree.Node[] = [];
  for (const ref of findVariable(sourceCode, holder.id)?.references ?? []) {
    const member = outermostWrapper(ref.identifier).parent;
    if (ref.isRead() && member?.type === AST_NODE_TYPES.MemberExpression && propertyName(member.property, member.computed) === field) {
      uses.push(member);
    }
  }
  return uses;
}

/**
 * The values a use of a field is compared with: `===`/`!==`, `switch` cases (`*` for `default`),
 * `[...].includes(action)`.
 */
export function comparedValues(use: TSESTree.Node): string[] {
  const outer = outermostWrapper(use);
  const parent = outer.parent;
  if (!parent) return [];
  if (parent.type === AST_NODE_TYPES.BinaryExpression && ['===', '!==', '==', '!='].includes(parent.operator)) {
    const other = parent.left === outer ? parent.right : parent.left;
    const value = staticString(other);
    return value === undefined ? [] : [value];
  }
  if (parent.type === AST_NODE_TYPES.SwitchStatement && parent.discriminant === outer) {
    // An `accept` case is not a branch for the other actions (unlike `!== 'accept'`): leave it out.
    return parent.cases.map((c) => (c.test ? (staticString(c.test) ?? '') : '*')).filter((v) => v !== 'accept');
  }
  if (
    parent.type === AST_NODE_TYPES.CallExpression &&
    parent.arguments[0] === outer &&
    calleeName(parent) === 'includes' &&
    parent.callee.type === AST_NODE_TYPES.MemberExpression
  ) {
    const list = unwrap(parent.callee.object);
    if (list.type === AST_NODE_TYPES.ArrayExpression) {
      return list.elements.flatMap((e) => (e ? [staticString(e) ?? ''] : []));
    }
  }
  return [];
}

/**
 * Is the whole answer handed on — passed to a function (not a logger) or returned — so decline and
 * cancel may be handled where the rule cannot see?
 */
export function answerEscapes(read: AnswerRead): boolean {
  const holders: TSESTree.Node[] = [read.node];
  for (const ref of read.binding?.references ?? []) if (ref.isRead()) holders.push(ref.identifier);
  return holders.some((holder) => {
    const outer = outermostWrapper(holder);
    const parent = outer.parent;
    if (parent?.type === AST_NODE_TYPES.ReturnStatement) return true;
    if (parent?.type !== AST_NODE_TYPES.CallExpression || !parent.arguments.includes(outer as TSESTree.CallExpressionArgument)) {
      return false;
    }
    return memberPath(parent.callee)[0] !== 'console';
  });
}

/**
 * Is the answer only written into the result the handler returns (`text: \`Notes: ${a.content?.text ?? ''}\``,
 * `const verdict = a.action as string` shown in it), with no fallback but an empty one? Then a decline ends
 * in a reply that shows no answer, and nothing acts on it: there is no branch to miss.
 */
export function answerOnlyRendered(sourceCode: Readonly<TSESLint.SourceCode>, read: AnswerRead): boolean {
  const uses: TSESTree.Node[] = read.binding
    ? (read.binding.references ?? []).filter((ref) => ref.isRead()).map((ref) => ref.identifier)
    : [read.node];
  return uses.length > 0 && uses.every((use) => isRendered(sourceCode, use, 0));
}

/** Does this value only flow, through field reads, fallbacks, `String(...)` and templates, into a returned value? */
function isRendered(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, depth: number): boolean {
  let current: TSESTree.Node = node;
  for (let parent = current.parent; parent; current = parent, parent = parent.parent) {
    switch (parent.type) {
      case AST_NODE_TYPES.MemberExpression:
        if (parent.object !== current) return false;
        continue;
      case AST_NODE_TYPES.ChainExpression:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TemplateLiteral:
      case AST_NODE_TYPES.ArrayExpression:
      case AST_NODE_TYPES.ObjectExpression:
        continue;
      case AST_NODE_TYPES.LogicalExpression:
        if (parent.operator === '&&') return false;
        // `a.content?.scope ?? 'all'` shows a made-up answer as the user's: only an empty fallback is no answer.
        if (parent.left === current && !isEmptyFallback(parent.right)) return false;
        continue;
      case AST_NODE_TYPES.Property:
        if (parent.value !== current) return false;
        continue;
      case AST_NODE_TYPES.CallExpression:
        if (parent.callee.type !== AST_NODE_TYPES.Identifier || parent.callee.name !== 'String') return false;
        continue;
      case AST_NODE_TYPES.ReturnStatement:
        return true;
      case AST_NODE_TYPES.ArrowFunctionExpression:
        return parent.body === current;
      case AST_NODE_TYPES.VariableDeclarator: {
        // `const verdict = a.action as string`: followed one local deep.
        if (parent.init !== current || parent.id.type !== AST_NODE_TYPES.Identifier || depth > 0) return false;
        const refs = (findVariable(sourceCode, parent.id)?.references ?? []).filter((ref) => ref.isRead());
        return refs.length > 0 && refs.every((ref) => isRendered(sourceCode, ref.identifier, depth + 1));
      }
      default:
        return false;
    }
  }
  return false;
}

/** `''`, `null`, `undefined`: a fallback that shows nothing in place of the answer. */
function isEmptyFallback(node: TSESTree.Node): boolean {
  const n = unwrap(node);
  if (n.type === AST_NODE_TYPES.Identifier) return n.name === 'undefined';
  return n.type === AST_NODE_TYPES.Literal && (n.value === '' || n.value === null);
}
