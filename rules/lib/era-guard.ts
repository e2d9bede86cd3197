/**
 * Era guards: code that only runs on a 2025-era (legacy) request, where push-style requests still
 * work. Recognised tests: the factory context's `era === 'legacy'` (or `era !== 'modern'`),
 * `ctx.mcpReq.envelope === undefined` (or `!ctx.mcpReq.envelope`, `== null`, `typeof … === 'undefined'`),
 * either as the branch taken or as an early exit (`if (era !== 'legacy') { …; return }`).
 * A client-capability check is not an era guard: a 2026 client can lack elicitation too.
 */
import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { memberPath, staticString, unwrap } from './expressions.js';

type Era = 'legacy' | 'modern';

/** Does `node` only run on a legacy-era request? */
export function isEraGuarded(node: TSESTree.Node): boolean {
  let child: TSESTree.Node = node;
  let parent = node.parent;
  while (parent) {
    switch (parent.type) {
      case AST_NODE_TYPES.IfStatement:
      case AST_NODE_TYPES.ConditionalExpression:
        if (child === parent.consequent && eraWhen(parent.test, true) === 'legacy') return true;
        if (child === parent.alternate && eraWhen(parent.test, false) === 'legacy') return true;
        break;
      case AST_NODE_TYPES.LogicalExpression:
        if (child === parent.right) {
          if (parent.operator === '&&' && eraWhen(parent.left, true) === 'legacy') return true;
          if (parent.operator === '||' && eraWhen(parent.left, false) === 'legacy') return true;
        }
        break;
      case AST_NODE_TYPES.BlockStatement:
      case AST_NODE_TYPES.Program:
      case AST_NODE_TYPES.SwitchCase:
        if (followsModernExit(parent, child)) return true;
        break;
      default:
        break;
    }
    // Guards do reach into functions defined in the arm: a legacy-era factory arm registers
    // handlers that only ever serve that legacy server.
    child = parent;
    parent = parent.parent;
  }
  return false;
}

/** An earlier sibling `if (<modern>) { …; return }` means the rest of the block is legacy-only. */
function followsModernExit(block: TSESTree.BlockStatement | TSESTree.Program | TSESTree.SwitchCase, child: TSESTree.Node): boolean {
  const body = block.type === AST_NODE_TYPES.SwitchCase ? block.consequent : block.body;
  for (const statement of body) {
    if (statement === child) return false;
    if (statement.type !== AST_NODE_TYPES.IfStatement) continue;
    if (eraWhen(statement.test, false) === 'legacy' && alwaysExits(statement.consequent)) return true;
    if (statement.alternate && eraWhen(statement.test, true) === 'legacy' && alwaysExits(statement.alternate)) return true;
  }
  return false;
}

function alwaysExits(statement: TSESTree.Statement): boolean {
  switch (statement.type) {
    case AST_NODE_TYPES.ReturnStatement:
    case AST_NODE_TYPES.ThrowStatement:
      return true;
    case AST_NODE_TYPES.BlockStatement: {
      const last = statement.body[statement.body.length - 1];
      return last !== undefined && alwaysExits(last);
    }
    case AST_NODE_TYPES.IfStatement:
      return statement.alternate !== null && alwaysExits(statement.consequent) && alwaysExits(statement.alternate);
    default:
      return false;
  }
}

/** Which era a test being `outcome` implies, if any. */
function eraWhen(test: TSESTree.Node, outcome: boolean): Era | undefined {
  const t = unwrap(test);
  if (t.type === AST_NODE_TYPES.UnaryExpression && t.operator === '!') return eraWhen(t.argument, !outcome);
  if (t.type === AST_NODE_TYPES.LogicalExpression) {
    // `a && b` true: both true; `a || b` false: both false. Otherwise nothing is certain.
    if (t.operator === '&&' && outcome) return eraWhen(t.left, true) ?? eraWhen(t.right, true);
    if (t.operator === '||' && !outcome) return eraWhen(t.left, false) ?? eraWhen(t.right, false);
    return undefined;
  }
  if (isEnvelope(t)) return outcome ? 'modern' : 'legacy';
  if (t.type !== AST_NODE_TYPES.BinaryExpression) return undefined;
  const equal = t.operator === '===' || t.operator === '==';
  if (!equal && t.operator !== '!==' && t.operator !== '!=') return undefined;
  const whenEqual = comparisonEra(t.left, t.right) ?? comparisonEra(t.right, t.left);
  if (!whenEqual) return undefined;
  return equal === outcome ? whenEqual : flip(whenEqual);
}

/** The era implied by `subject === value` being true. */
function comparisonEra(subject: TSESTree.Node, value: TSESTree.Node): Era | undefined {
  const s = unwrap(subject);
  const literal = staticString(value);
  if (isEraValue(s) && (literal === 'legacy' || literal === 'modern')) return literal;
  const v = unwrap(value);
  const isNullish =
    (v.type === AST_NODE_TYPES.Identifier && v.name === 'undefined') ||
    (v.type === AST_NODE_TYPES.Literal && v.value === null && !('regex' in v)) ||
    (v.type === AST_NODE_TYPES.UnaryExpression && v.operator === 'void');
  if (isEnvelope(s) && isNullish) return 'legacy';
  if (s.type === AST_NODE_TYPES.UnaryExpression && s.operator === 'typeof' && isEnvelope(s.argument) && literal === 'undefined') {
    return 'legacy';
  }
  return undefined;
}

/** `era`, `<anything>.era` (the factory context's field), or a `getProtocolEra()` call. */
function isEraValue(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.CallExpression) return memberPath(node.callee).at(-1) === 'getProtocolEra';
  const path = memberPath(node);
  return path[path.length - 1] === 'era';
}

/** `<ctx>.mcpReq.envelope`: present only on 2026-era requests. */
function isEnvelope(node: TSESTree.Node): boolean {
  const path = memberPath(unwrap(node));
  return path.length >= 2 && path[path.length - 1] === 'envelope' && path[path.length - 2] === 'mcpReq';
}

function flip(era: Era): Era {
  return era === 'legacy' ? 'modern' : 'legacy';
}
