/**
 * Era guards: a legacy arm already kept apart from an MRTR arm by a protocol-era check is left alone.
 * Recognised: the server factory's `era === 'legacy'` (`ctx.era`, or a destructured `era`),
 * `ctx.mcpReq.envelope === undefined` (2025 requests carry no envelope), and an early
 * `if (era !== 'legacy') { …; return }` before the legacy code. A client-capability check is not one.
 */
import ts from '../typescript.cjs';
import { memberChain, unwrap } from './ast.js';

type Era = 'legacy' | 'modern';

/** Is `node` only reached on the legacy era, judging by the checks around it up to the file? */
export function isEraGuarded(node: ts.Node): boolean {
  if (!mayTestEra(node)) return false;
  let child: ts.Node = node;
  for (let n = node.parent; n; child = n, n = n.parent) {
    if (ts.isIfStatement(n)) {
      const era = eraTested(n.expression);
      if (era && ((child === n.thenStatement && era === 'legacy') || (child === n.elseStatement && era === 'modern'))) return true;
    } else if (ts.isConditionalExpression(n)) {
      const era = eraTested(n.condition);
      if (era && ((child === n.whenTrue && era === 'legacy') || (child === n.whenFalse && era === 'modern'))) return true;
    } else if (ts.isBinaryExpression(n) && n.right === child) {
      // `era === 'legacy' && legacyCall()`, `envelope || legacyCall()`
      const era = eraTested(n.left);
      if (era === 'legacy' && n.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) return true;
      if (era === 'modern' && n.operatorToken.kind === ts.SyntaxKind.BarBarToken) return true;
    } else if (ts.isBlock(n) || ts.isSourceFile(n) || ts.isCaseClause(n) || ts.isDefaultClause(n)) {
      const statements: readonly ts.Statement[] = n.statements;
      for (const st of statements) {
        if (st === child) break;
        if (ts.isIfStatement(st) && !st.elseStatement && eraTested(st.expression) === 'modern' && endsWithExit(st.thenStatement)) return true;
      }
    }
  }
  return false;
}

const mentionsEra = new WeakMap<ts.SourceFile, boolean>();
// every era test names `era`, `getProtocolEra` or `envelope` (a unicode escape could spell one: those files take the long way)
const ERA_WORDS = /\bera\b|getProtocolEra|\benvelope\b|\\u/;

/** Can the file hold an era test at all? Its text says, once per file: most files never name one. */
function mayTestEra(node: ts.Node): boolean {
  let sf: ts.Node = node;
  while (sf.parent) sf = sf.parent;
  if (!ts.isSourceFile(sf)) return true;
  let known = mentionsEra.get(sf);
  if (known === undefined) mentionsEra.set(sf, (known = ERA_WORDS.test(sf.text)));
  return known;
}

/** Which era a condition selects when true, if it is an era test at all. */
function eraTested(cond: ts.Expression): Era | undefined {
  const e = unwrap(cond);
  if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.ExclamationToken) {
    const inner = eraTested(e.operand);
    if (inner) return inner === 'legacy' ? 'modern' : 'legacy';
    // `!ctx.mcpReq.envelope`
    return isEnvelope(e.operand) ? 'legacy' : undefined;
  }
  if (isEnvelope(e)) return 'modern';
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return eraTested(e.left) ?? eraTested(e.right);
    const equal = op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.EqualsEqualsToken;
    const unequal = op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken;
    if (!equal && !unequal) return undefined;
    const sides = [unwrap(e.left), unwrap(e.right)];
    let selected: Era | undefined;
    for (const [a, b] of [sides, [sides[1], sides[0]]]) {
      if (isEraRef(a) && ts.isStringLiteralLike(b) && (b.text === 'legacy' || b.text === 'modern')) selected = b.text;
      if (isEnvelope(a) && isNullish(b)) selected = 'legacy';
    }
    if (!selected) return undefined;
    return equal ? selected : selected === 'legacy' ? 'modern' : 'legacy';
  }
  return undefined;
}

function isEraRef(e: ts.Expression): boolean {
  if (ts.isIdentifier(e)) return e.text === 'era';
  if (ts.isPropertyAccessExpression(e)) return e.name.text === 'era';
  if (ts.isCallExpression(e)) return memberChain(e.expression).at(-1) === 'getProtocolEra';
  return false;
}

/** `<x>.mcpReq.envelope` */
function isEnvelope(e: ts.Expression): boolean {
  const chain = memberChain(e);
  return chain.length >= 2 && chain[chain.length - 1] === 'envelope' && chain[chain.length - 2] === 'mcpReq';
}

function isNullish(e: ts.Expression): boolean {
  return (ts.isIdentifier(e) && e.text === 'undefined') || e.kind === ts.SyntaxKind.NullKeyword || (ts.isVoidExpression(e));
}

function endsWithExit(st: ts.Statement): boolean {
  if (ts.isReturnStatement(st) || ts.isThrowStatement(st)) return true;
  if (ts.isBlock(st)) {
    const last = st.statements[st.statements.length - 1];
    return !!last && endsWithExit(last);
  }
  return false;
}

/** Is `node` under a branch that tests client capabilities (a fallback for clients without the feature)? */
export function isUnderCapabilityCheck(node: ts.Node, stop: ts.Node): boolean {
  let child: ts.Node = node;
  for (let n = node.parent; n && n !== stop; child = n, n = n.parent) {
    if (ts.isIfStatement(n) && child !== n.expression && CAPABILITY.test(n.expression.getText())) return true;
    if (ts.isConditionalExpression(n) && child !== n.condition && CAPABILITY.test(n.condition.getText())) return true;
    if (ts.isBlock(n)) {
      // `if (!caps?.elicitation) return fallback;` before the ask
      for (const st of n.statements) {
        if (st === child) break;
        if (ts.isIfStatement(st) && endsWithExit(st.thenStatement) && CAPABILITY.test(st.expression.getText())) return true;
      }
    }
  }
  return false;
}

const CAPABILITY = /capabilit/i;
