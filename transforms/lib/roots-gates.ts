/**
 * The capability gates of a retired roots request (`--roots config`): the legacy code asked for roots only
 * when the client declared them, and fell back otherwise. Once roots come from configuration
 * (`MCP_ALLOWED_ROOTS`), asking the client whether it has roots would ignore the configured roots for every
 * client that declares none; so each gate asks the configuration instead:
 *
 *   if (server.server.getClientCapabilities()?.roots) { …listRoots()… } else { fallback }
 *   → if (rootsFromConfig().roots.length > 0) { …rootsFromConfig()… } else { fallback }
 *
 *   const caps = server.server.getClientCapabilities();
 *   if (!caps?.roots) return noRoots();         → if (rootsFromConfig().roots.length === 0) return noRoots();
 *
 * The fallback stays: it is what the server did without roots, and still does when none are configured.
 * Gates recognised: an `if` or `?:` whose guarded branch holds the call, `R && call`, and an `if (!R)
 * return/throw` before the call in an enclosing block, up to the function holding the call; in a test,
 * the roots read may be one conjunct of `&&` (positive) or one disjunct of `||` (negative). A roots read is
 * `C.roots` / `C?.roots` (also `!!`, `Boolean(…)`, `!== undefined`, `!= null`, `'roots' in C`, and their
 * negations) where `C` is `X.getClientCapabilities()`, a variable initialised from it, or a name that
 * says it holds capabilities (`capabilities`, `clientCaps`, …). Only the read is replaced.
 */
import { isFunction, memberChain, unwrap, walk, type Node } from './ast.js';
import type { Edit } from './source-text.js';

const CONFIGURED = 'rootsFromConfig().roots.length > 0';
const NOT_CONFIGURED = 'rootsFromConfig().roots.length === 0';
const CAPABILITY_GETTER = 'getClientCapabilities';
const CAPABILITY_NAME = /capabilit|(?:^|[a-z_])caps$/i;
const WRAPPERS = new Set(['ParenthesizedExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression', 'TSTypeAssertion']);
/** Parents under which a relational expression needs no parentheses. */
const NO_PARENS = new Set(['IfStatement', 'ConditionalExpression', 'LogicalExpression', 'ParenthesizedExpression', 'VariableDeclarator', 'ReturnStatement', 'CallExpression', 'NewExpression', 'AssignmentExpression', 'ExpressionStatement']);

type Polarity = 'declared' | 'undeclared';

/**
 * Edits that turn the roots-capability gates of the call at `call` (with its ancestors) into
 * configuration checks. `program` resolves variables holding capabilities.
 */
export function rootsGateEdits(program: Node, call: Node, ancestors: readonly Node[]): Edit[] {
  const fnAt = findLastIndex(ancestors, isFunction);
  const scope = fnAt >= 0 ? ancestors[fnAt] : program;
  return gateEditsIn(program, scope, fnAt, call, ancestors);
}

/**
 * `const caps = X.getClientCapabilities();` statements of the function holding `call` that nothing reads
 * once `edits` are applied (they only fed the gates): removed with their line, so the port leaves no
 * unused variable behind.
 */
export function unusedCapabilityDeclarations(program: Node, call: Node, ancestors: readonly Node[], edits: readonly Edit[], text: string): Edit[] {
  const fnAt = findLastIndex(ancestors, isFunction);
  if (fnAt < 0) return [];
  const scope = ancestors[fnAt];
  const names = capabilityVariables(program, scope);
  const covered = (n: Node) => edits.some((e) => e.start <= n.start && n.end <= e.end);
  const removals: Edit[] = [];
  walk(scope, (st, inner) => {
    if (st.type !== 'VariableDeclaration' || (st.declarations as Node[]).length !== 1 || inner.slice(1).some(isFunction)) return;
    const id = (st.declarations as Node[])[0].id as Node;
    if (id.type !== 'Identifier' || !names.has(id.name as string)) return;
    let readElsewhere = false;
    walk(scope, (n, up) => {
      if (n.type !== 'Identifier' || n.name !== id.name || n === id || covered(n)) return;
      const parent = up[up.length - 1];
      if (parent && (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.property === n && !parent.computed) return;
      if (parent && parent.type === 'ObjectProperty' && parent.key === n && !parent.computed && !parent.shorthand) return;
      readElsewhere = true;
    });
    if (!readElsewhere) removals.push(wholeLines(st, text));
  });
  return removals;
}

/** The statement with its indentation and line break, when it is alone on its lines; else itself. */
function wholeLines(st: Node, text: string): Edit {
  const lineStart = text.lastIndexOf('\n', st.start - 1) + 1;
  const eol = text.indexOf('\n', st.end);
  const lineEnd = eol < 0 ? text.length : eol + 1;
  const alone = /^[ \t]*$/.test(text.slice(lineStart, st.start)) && /^[ \t]*\r?$/.test(text.slice(st.end, eol < 0 ? text.length : eol));
  return alone ? { start: lineStart, end: lineEnd, text: '' } : { start: st.start, end: st.end, text: '' };
}

function gateEditsIn(program: Node, scope: Node, fnAt: number, call: Node, ancestors: readonly Node[]): Edit[] {
  const capabilityVars = capabilityVariables(program, scope);
  const edits: Edit[] = [];
  const rewrite = (test: Node, branch: Polarity) => collectReads(test, branch, undefined, capabilityVars, edits);
  for (let k = ancestors.length - 1; k > fnAt; k--) {
    const gate = ancestors[k];
    const child = ancestors[k + 1] ?? call;
    if ((gate.type === 'IfStatement' || gate.type === 'ConditionalExpression') && child !== gate.test) {
      rewrite(gate.test as Node, child === gate.consequent ? 'declared' : 'undeclared');
    } else if (gate.type === 'LogicalExpression' && child === gate.right && (gate.operator === '&&' || gate.operator === '||')) {
      rewrite(gate.left as Node, gate.operator === '&&' ? 'declared' : 'undeclared');
    } else if (gate.type === 'BlockStatement') {
      // `if (!caps?.roots) return fallback;` before the statement that holds the call
      for (const st of gate.body as Node[]) {
        if (st === child) break;
        if (st.type === 'IfStatement' && !st.alternate && exits(st.consequent as Node)) rewrite(st.test as Node, 'undeclared');
      }
    }
  }
  return edits;
}

/**
 * Replaces the roots reads of `test` that decide `branch` runs: with `branch` 'declared' the test must be
 * truthy (a read, or a conjunct of `&&`); 'undeclared' falsy-read (a negated read, or a disjunct of `||`).
 */
function collectReads(node: Node, branch: Polarity, parent: Node | undefined, capabilityVars: ReadonlySet<string>, edits: Edit[]): void {
  if (WRAPPERS.has(node.type)) return collectReads(node.expression as Node, branch, node, capabilityVars, edits);
  const read = rootsRead(node, capabilityVars);
  if (read !== undefined) {
    if (read !== branch) return;
    const text = read === 'declared' ? CONFIGURED : NOT_CONFIGURED;
    edits.push({ start: node.start, end: node.end, text: parent && !NO_PARENS.has(parent.type) ? `(${text})` : text });
    return;
  }
  if (node.type === 'LogicalExpression' && node.operator === (branch === 'declared' ? '&&' : '||')) {
    collectReads(node.left as Node, branch, node, capabilityVars, edits);
    collectReads(node.right as Node, branch, node, capabilityVars, edits);
  } else if (node.type === 'UnaryExpression' && node.operator === '!' && !rootsRead(node.argument as Node, capabilityVars)) {
    // `!(caps?.roots && x)` guarding the fallback is `!caps?.roots || !x`
    collectReads(node.argument as Node, branch === 'declared' ? 'undeclared' : 'declared', node, capabilityVars, edits);
  }
}

/** Is `node` a test of the client's roots capability, and which answer is truthy? */
function rootsRead(node: Node, capabilityVars: ReadonlySet<string>): Polarity | undefined {
  const n = unwrap(node);
  if (isRootsMember(n, capabilityVars)) return 'declared';
  if (n.type === 'BinaryExpression' && n.operator === 'in' && stringLiteral(n.left as Node) === 'roots' && isCapabilities(n.right as Node, capabilityVars)) return 'declared';
  if (n.type === 'UnaryExpression' && n.operator === '!') {
    const inner = rootsRead(n.argument as Node, capabilityVars);
    return inner === undefined ? undefined : inner === 'declared' ? 'undeclared' : 'declared';
  }
  if (n.type === 'CallExpression' && memberChain(n.callee as Node).join('.') === 'Boolean' && (n.arguments as Node[]).length === 1) {
    return rootsRead((n.arguments as Node[])[0], capabilityVars);
  }
  if (n.type === 'BinaryExpression' && ['===', '!==', '==', '!='].includes(n.operator as string)) {
    const [value, other] = isNullish(n.right as Node) ? [n.left as Node, n.right as Node] : [n.right as Node, n.left as Node];
    if (!isNullish(other) || !isRootsMember(unwrap(value), capabilityVars)) return undefined;
    // `=== null` alone misses an absent (undefined) capability: not a capability test
    if ((n.operator === '===' || n.operator === '!==') && unwrap(other).type === 'NullLiteral') return undefined;
    return n.operator.startsWith('!') ? 'declared' : 'undeclared';
  }
  return undefined;
}

/** `C.roots` / `C?.roots` / `C['roots']` on capabilities. */
function isRootsMember(n: Node, capabilityVars: ReadonlySet<string>): boolean {
  if (n.type !== 'MemberExpression' && n.type !== 'OptionalMemberExpression') return false;
  const prop = n.property as Node;
  const name = !n.computed && prop.type === 'Identifier' ? prop.name : n.computed ? stringLiteral(prop) : undefined;
  return name === 'roots' && isCapabilities(n.object as Node, capabilityVars);
}

/** `X.getClientCapabilities()`, a variable holding it, or a name or property that says it is capabilities. */
function isCapabilities(node: Node, capabilityVars: ReadonlySet<string>): boolean {
  const n = unwrap(node);
  if (isCapabilityCall(n)) return true;
  if (n.type === 'Identifier') return capabilityVars.has(n.name as string) || CAPABILITY_NAME.test(n.name as string);
  if ((n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') && !n.computed) {
    const prop = n.property as Node;
    return prop.type === 'Identifier' && CAPABILITY_NAME.test(prop.name as string);
  }
  return false;
}

function isCapabilityCall(n: Node): boolean {
  return (n.type === 'CallExpression' || n.type === 'OptionalCallExpression') && memberChain(n.callee as Node).at(-1) === CAPABILITY_GETTER;
}

/** Names bound to `X.getClientCapabilities()` (also `?? {}` / `|| {}`) in `scope` or at the top of the file. */
function capabilityVariables(program: Node, scope: Node): Set<string> {
  const names = new Set<string>();
  const visit = (root: Node, nested: boolean) =>
    walk(root, (n, ancestors) => {
      if (n.type !== 'VariableDeclarator' || (n.id as Node).type !== 'Identifier' || !n.init) return;
      // inside `scope` only its own declarations (not nested functions'); in the file, only the top level
      const inner = ancestors.slice(ancestors.indexOf(root) + 1);
      if (nested ? inner.some(isFunction) : inner.some((a) => a.type === 'BlockStatement' || isFunction(a))) return;
      let init = unwrap(n.init as Node);
      if (init.type === 'LogicalExpression' && (init.operator === '??' || init.operator === '||')) init = unwrap(init.left as Node);
      if (isCapabilityCall(init)) names.add((n.id as Node).name as string);
    });
  visit(scope, true);
  if (scope !== program) visit(program, false);
  return names;
}

/** Does the statement always leave the function or the enclosing block (return, throw, continue, break)? */
function exits(st: Node): boolean {
  if (['ReturnStatement', 'ThrowStatement', 'ContinueStatement', 'BreakStatement'].includes(st.type)) return true;
  if (st.type === 'BlockStatement') {
    const body = st.body as Node[];
    return body.length > 0 && exits(body[body.length - 1]);
  }
  return false;
}

function isNullish(node: Node): boolean {
  const n = unwrap(node);
  return n.type === 'NullLiteral' || (n.type === 'Identifier' && n.name === 'undefined');
}

function stringLiteral(node: Node): string | undefined {
  const n = unwrap(node);
  return n.type === 'StringLiteral' ? (n.value as string) : undefined;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return i;
  return -1;
}
