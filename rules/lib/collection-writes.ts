/**
 * `cache.set(key, value)` on a `Map` (or `Set#add`, `delete`) declared in this file, with arguments that are
 * the same on every round: the write the port makes again on each round so that the replica running the
 * next round holds the entry (docs/engine.md, "What is memoized"). Made again, it changes nothing.
 * Rules have no types: the receiver must be a name or `this.x` whose declaration in this file says which
 * built-in it holds (`new Map(…)`, or a `Map<…>` annotation); anything else stays a side effect.
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { REPLAYED_COLLECTION_WRITES } from '../../src/analyzer/plan/builtins.js';
import { propertyName, unwrap } from './expressions.js';
import { findVariable } from './resolve.js';

export function isReplayedCollectionWrite(
  sourceCode: Readonly<TSESLint.SourceCode>,
  node: TSESTree.Node,
  isJournalled: (e: TSESTree.Node) => boolean,
): boolean {
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  const callee = unwrap(node.callee);
  if (callee.type !== AST_NODE_TYPES.MemberExpression || callee.computed || callee.property.type !== AST_NODE_TYPES.Identifier) return false;
  const kinds = REPLAYED_COLLECTION_WRITES.get(callee.property.name);
  const kind = kinds && collectionDeclaredFor(sourceCode, unwrap(callee.object));
  return !!kind && kinds.has(kind) && node.arguments.every((a) => isStable(a, isJournalled));
}

/** The built-in a name or `this.x` is declared to hold in this file: `new Set()`, `: Map<K, V>`. */
function collectionDeclaredFor(sourceCode: Readonly<TSESLint.SourceCode>, receiver: TSESTree.Node): string | undefined {
  if (receiver.type === AST_NODE_TYPES.Identifier) {
    const variable = findVariable(sourceCode, receiver);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier) return undefined;
    // a `let` written again may hold something else
    if (def.parent?.type === AST_NODE_TYPES.VariableDeclaration && def.parent.kind !== 'const') return undefined;
    return builtinOf(def.node.id.typeAnnotation?.typeAnnotation, def.node.init);
  }
  if (receiver.type === AST_NODE_TYPES.MemberExpression && !receiver.computed && receiver.object.type === AST_NODE_TYPES.ThisExpression) {
    const name = propertyName(receiver.property, false);
    const cls = enclosingClass(receiver);
    if (!cls || name === undefined) return undefined;
    for (const member of cls.body.body) {
      if (member.type === AST_NODE_TYPES.PropertyDefinition && !member.computed && propertyName(member.key, false) === name) {
        return member.readonly ? builtinOf(member.typeAnnotation?.typeAnnotation, member.value ?? undefined) : undefined;
      }
      if (member.type === AST_NODE_TYPES.MethodDefinition && member.kind === 'constructor') {
        for (const p of member.value.params) {
          if (p.type === AST_NODE_TYPES.TSParameterProperty && p.readonly && p.parameter.type === AST_NODE_TYPES.Identifier && p.parameter.name === name) {
            return builtinOf(p.parameter.typeAnnotation?.typeAnnotation, undefined);
          }
        }
      }
    }
  }
  return undefined;
}

function builtinOf(type: TSESTree.TypeNode | undefined, init: TSESTree.Expression | null | undefined): string | undefined {
  if (type?.type === AST_NODE_TYPES.TSTypeReference && type.typeName.type === AST_NODE_TYPES.Identifier) return type.typeName.name;
  const value = init ? unwrap(init) : undefined;
  if (value?.type === AST_NODE_TYPES.NewExpression && value.callee.type === AST_NODE_TYPES.Identifier) return value.callee.name;
  return undefined;
}

function enclosingClass(node: TSESTree.Node): TSESTree.ClassDeclaration | TSESTree.ClassExpression | undefined {
  for (let n: TSESTree.Node | undefined = node.parent; n; n = n.parent) {
    if (n.type === AST_NODE_TYPES.ClassDeclaration || n.type === AST_NODE_TYPES.ClassExpression) return n;
    // `this` inside a function other than an arrow is that function's own
    if (n.type === AST_NODE_TYPES.FunctionDeclaration || n.type === AST_NODE_TYPES.FunctionExpression) {
      if (n.parent?.type !== AST_NODE_TYPES.MethodDefinition) return undefined;
    }
  }
  return undefined;
}

/** The same on every round: a literal, a name or member read, a journalled value, or literals and operators of those (`(await once(…) ?? 0) + 1`). */
function isStable(node: TSESTree.Node, isJournalled: (e: TSESTree.Node) => boolean): boolean {
  const e = unwrap(node);
  switch (e.type) {
    case AST_NODE_TYPES.Literal:
    case AST_NODE_TYPES.Identifier:
    case AST_NODE_TYPES.ThisExpression:
      return true;
    case AST_NODE_TYPES.MemberExpression:
      return (!e.computed || isStable(e.property, isJournalled)) && isStable(e.object, isJournalled);
    case AST_NODE_TYPES.TemplateLiteral:
      return e.expressions.every((x) => isStable(x, isJournalled));
    case AST_NODE_TYPES.SpreadElement:
      return isStable(e.argument, isJournalled);
    case AST_NODE_TYPES.ArrayExpression:
      return e.elements.every((x) => x === null || isStable(x, isJournalled));
    case AST_NODE_TYPES.ObjectExpression:
      return e.properties.every((p) => (p.type === AST_NODE_TYPES.SpreadElement ? isStable(p.argument, isJournalled) : !p.computed && isStable(p.value, isJournalled)));
    case AST_NODE_TYPES.AwaitExpression:
      return isJournalled(e);
    case AST_NODE_TYPES.BinaryExpression:
    case AST_NODE_TYPES.LogicalExpression:
      return isStable(e.left, isJournalled) && isStable(e.right, isJournalled);
    case AST_NODE_TYPES.ConditionalExpression:
      return isStable(e.test, isJournalled) && isStable(e.consequent, isJournalled) && isStable(e.alternate, isJournalled);
    case AST_NODE_TYPES.UnaryExpression:
      return e.operator !== 'delete' && isStable(e.argument, isJournalled);
    default:
      return false;
  }
}
