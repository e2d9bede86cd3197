/**
 * Recognising hand-written state protection by what the code does, not by what it is named: an HMAC,
 * a signature or an AEAD (node:crypto, WebCrypto, jose/jsonwebtoken, @noble/hashes), and the key it
 * is made with. Used by `no-unsigned-request-state` (a local signer seals) and
 * `require-request-state-binding` (what a signer binds, and whether its key is a constant).
 */
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { memberPath, unwrap } from './expressions.js';
import { childNodes, localFunction, singleValueOf } from './resolve.js';
import type { FunctionNode } from './resolve.js';

/** How a protecting call takes its key: the argument index, or the `key` option of an options object. */
type KeyAt = number | 'option';

/** Protecting calls by the callee's last names (`crypto.createHmac`, `subtle.sign`, `jwt.sign`). */
const PROTECTORS: readonly { path: readonly string[]; key?: KeyAt }[] = [
  { path: ['createHmac'], key: 1 },
  { path: ['createSign'] },
  { path: ['createCipheriv'], key: 1 },
  { path: ['subtle', 'sign'], key: 1 },
  { path: ['subtle', 'encrypt'], key: 1 },
  { path: ['jwt', 'sign'], key: 1 },
  { path: ['jsonwebtoken', 'sign'], key: 1 },
  { path: ['SignJWT', 'sign'], key: 0 },
  { path: ['EncryptJWT', 'encrypt'], key: 0 },
  { path: ['CompactEncrypt', 'encrypt'], key: 0 },
  { path: ['CompactSign', 'sign'], key: 0 },
  // @noble/hashes: hmac(sha256, key, message)
  { path: ['hmac'], key: 1 },
  { path: ['sealData'], key: 'option' },
  { path: ['Iron', 'seal'], key: 1 },
];

/**
 * Calls that check protection on the way in: recomputing the MAC (a protector above) and comparing it,
 * a signature or AEAD check, a JWT verify.
 */
const CHECKERS: readonly (readonly string[])[] = [
  ['timingSafeEqual'],
  ['subtle', 'verify'],
  ['subtle', 'decrypt'],
  ['createDecipheriv'],
  ['createVerify'],
  ['jwtVerify'],
  ['jwtDecrypt'],
  ['compactVerify'],
  ['compactDecrypt'],
  ['jwt', 'verify'],
  ['jsonwebtoken', 'verify'],
  ['unsealData'],
  ['Iron', 'unseal'],
];

/** Calls that make a key (their key argument is the secret). */
const KEY_IMPORTS: readonly { path: readonly string[]; key: KeyAt }[] = [
  { path: ['subtle', 'importKey'], key: 1 },
  { path: ['createSecretKey'], key: 0 },
];

const MAX_DEPTH = 4;

/** The protecting primitive a call is, if any (`new SignJWT(p).sign(k)` included). */
export function protectorOf(call: TSESTree.CallExpression | TSESTree.NewExpression): { key?: KeyAt } | undefined {
  const path = calleePath(call);
  return PROTECTORS.find((p) => endsWithPath(path, p.path));
}

/** The key expression a protecting or key-making call uses, when written as an argument. */
export function keyArgument(call: TSESTree.CallExpression | TSESTree.NewExpression): TSESTree.Node | undefined {
  const path = calleePath(call);
  const spec = PROTECTORS.find((p) => endsWithPath(path, p.path)) ?? KEY_IMPORTS.find((k) => endsWithPath(path, k.path));
  if (spec?.key === undefined) return undefined;
  if (spec.key === 'option') {
    const options = call.arguments[1] ? unwrap(call.arguments[1]) : undefined;
    if (options?.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
    const prop = options.properties.find(
      (p): p is TSESTree.Property => p.type === AST_NODE_TYPES.Property && !p.computed && p.key.type === AST_NODE_TYPES.Identifier && p.key.name === 'password',
    );
    return prop?.value;
  }
  return call.arguments[spec.key];
}

/**
 * Does evaluating `node` protect something: a protecting call in it (not inside nested functions it only
 * defines), through locals written once and local functions it calls?
 */
export function containsProtection(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node, depth = 0, seen = new Set<TSESTree.Node>()): boolean {
  if (depth > MAX_DEPTH || seen.has(node)) return false;
  seen.add(node);
  const n = unwrap(node);
  if (n.type === AST_NODE_TYPES.CallExpression || n.type === AST_NODE_TYPES.NewExpression) {
    if (protectorOf(n)) return true;
    const helper = n.type === AST_NODE_TYPES.CallExpression ? localFunction(sourceCode, unwrap(n.callee)) : undefined;
    if (helper && functionProtects(sourceCode, helper, depth + 1, seen)) return true;
  }
  if (n.type === AST_NODE_TYPES.Identifier) {
    const value = singleValueOf(sourceCode, n);
    return value !== undefined && containsProtection(sourceCode, value, depth + 1, seen);
  }
  if (isFunction(n)) return false;
  return childNodes(n).some((child) => containsProtection(sourceCode, child, depth, seen));
}

/** Does this function's body make a protecting call (directly or through local helpers)? */
export function functionProtects(sourceCode: Readonly<TSESLint.SourceCode>, fn: FunctionNode, depth = 0, seen = new Set<TSESTree.Node>()): boolean {
  if (depth > MAX_DEPTH) return false;
  return containsProtection(sourceCode, fn.body, depth, seen);
}

/** Does this function check a MAC, signature or AEAD on what it is given (directly or through local helpers)? */
export function functionVerifies(sourceCode: Readonly<TSESLint.SourceCode>, fn: FunctionNode, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  let found = false;
  const visit = (node: TSESTree.Node): void => {
    if (found || (node !== fn.body && isFunction(node))) return;
    if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) {
      const path = calleePath(node);
      if (protectorOf(node) || CHECKERS.some((c) => endsWithPath(path, c))) {
        found = true;
        return;
      }
      const helper = node.type === AST_NODE_TYPES.CallExpression ? localFunction(sourceCode, unwrap(node.callee)) : undefined;
      if (helper && helper !== fn && functionVerifies(sourceCode, helper, depth + 1)) {
        found = true;
        return;
      }
    }
    for (const child of childNodes(node)) visit(child);
  };
  visit(fn.body);
  return found;
}

/** Every protecting call in a function body (nested functions excluded). */
export function protectingCalls(fn: FunctionNode): (TSESTree.CallExpression | TSESTree.NewExpression)[] {
  const found: (TSESTree.CallExpression | TSESTree.NewExpression)[] = [];
  const visit = (node: TSESTree.Node): void => {
    if (node !== fn.body && isFunction(node)) return;
    if ((node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) && protectorOf(node)) found.push(node);
    for (const child of childNodes(node)) visit(child);
  };
  visit(fn.body);
  return found;
}

/** `a.b.c(...)` → `['a','b','c']`; `new SignJWT(p).setX().sign(k)` → `['SignJWT', 'sign']` (the chain's constructor and method). */
function calleePath(call: TSESTree.CallExpression | TSESTree.NewExpression): string[] {
  const callee = unwrap(call.callee);
  if (callee.type === AST_NODE_TYPES.MemberExpression) {
    const root = chainConstructor(callee.object);
    const method = memberPath(callee).at(-1) ?? '?';
    if (root) return [root, method];
  }
  return memberPath(callee);
}

/** The class a builder chain starts from: `new SignJWT(p).setIssuedAt()` → `SignJWT`. */
function chainConstructor(node: TSESTree.Node): string | undefined {
  let current = unwrap(node);
  while (current.type === AST_NODE_TYPES.CallExpression && current.callee.type === AST_NODE_TYPES.MemberExpression) {
    current = unwrap(current.callee.object);
  }
  if (current.type !== AST_NODE_TYPES.NewExpression) return undefined;
  return memberPath(current.callee).at(-1);
}

function endsWithPath(path: readonly string[], suffix: readonly string[]): boolean {
  if (suffix.length > path.length) return false;
  const offset = path.length - suffix.length;
  return suffix.every((s, i) => path[offset + i] === s);
}

function isFunction(node: TSESTree.Node): node is FunctionNode {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}
