/**
 * The Babel AST as jscodeshift's `ts`/`tsx` parsers produce it, read without recast: recast normalises
 * line endings before it hands out offsets, and every edit here is a text splice at exact offsets of
 * the input, so the untouched rest of the file keeps its bytes.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface BabelParser {
  parse(code: string, options: object): unknown;
}

/**
 * jscodeshift's own `ts`/`tsx` options (plugins, module goal) and the @babel/parser it depends on,
 * required on the first parse: a run that transforms nothing (no file with a site) never loads Babel.
 *
 * Without `tokens`: jscodeshift asks Babel for the token list (recast reprints from it), and Babel's
 * conversion of template-literal tokens splices an array per token, quadratic in the file's template
 * count (a 4 MB file of template functions took minutes). Every edit here is a text splice on node
 * offsets, so nothing reads the tokens.
 */
let loaded: { babel: BabelParser; options: Record<'ts' | 'tsx', object> } | undefined;
function babelParser(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const jscodeshiftRequire = createRequire(require.resolve('jscodeshift/package.json'));
  const tsOptions = require('jscodeshift/parser/tsOptions.js') as { plugins: unknown[] };
  loaded = {
    babel: jscodeshiftRequire('@babel/parser') as BabelParser,
    options: {
      ts: { ...tsOptions, tokens: false },
      tsx: { ...tsOptions, tokens: false, plugins: ['jsx', ...tsOptions.plugins] },
    },
  };
  return loaded;
}

/** A Babel node; only the fields the transforms read are typed, the rest is reached by name. */
export interface Node {
  type: string;
  start: number;
  end: number;
  loc: { start: { line: number; column: number }; end: { line: number; column: number } };
  // Babel nodes carry many per-type fields; they are read by name where the type is checked first.
  [field: string]: any;
}

/** `ts` for .ts/.mts/.cts (where `<T>x` is a cast), `tsx` for everything else. */
export function parserFor(path: string): 'ts' | 'tsx' {
  return /\.[mc]?ts$/.test(path) ? 'ts' : 'tsx';
}

export function parseProgram(text: string, parser: 'ts' | 'tsx'): Node {
  const { babel, options } = babelParser();
  const file = babel.parse(text, options[parser]) as Node;
  return file.program as Node;
}

const SKIPPED_KEYS = new Set(['loc', 'start', 'end', 'extra', 'leadingComments', 'trailingComments', 'innerComments', 'comments', 'tokens', 'range']);

export function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string' && typeof (value as Node).start === 'number';
}

/** Child nodes in source order. */
export function children(node: Node): Node[] {
  const out: Node[] = [];
  for (const key of Object.keys(node)) {
    if (SKIPPED_KEYS.has(key)) continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) out.push(item);
    } else if (isNode(value)) {
      out.push(value);
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Depth-first, parents before children; `ancestors` is outermost first and excludes `node`. */
export function walk(root: Node, visit: (node: Node, ancestors: readonly Node[]) => void): void {
  const stack: Node[] = [];
  const go = (node: Node): void => {
    visit(node, stack);
    stack.push(node);
    for (const child of children(node)) go(child);
    stack.pop();
  };
  go(root);
}

export const FUNCTION_TYPES = new Set([
  'ArrowFunctionExpression',
  'FunctionExpression',
  'FunctionDeclaration',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
]);

export const LOOP_TYPES = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);

export function isFunction(node: Node): boolean {
  return FUNCTION_TYPES.has(node.type);
}

/** Strips parentheses, `as`, `satisfies`, `!` and `<T>x` wrappers. */
export function unwrap(node: Node): Node {
  let n = node;
  while (
    n.type === 'ParenthesizedExpression' ||
    n.type === 'TSAsExpression' ||
    n.type === 'TSSatisfiesExpression' ||
    n.type === 'TSNonNullExpression' ||
    n.type === 'TSTypeAssertion'
  ) {
    n = n.expression as Node;
  }
  return n;
}

export function stringValue(node: Node | undefined | null): string | undefined {
  if (!node) return undefined;
  const n = unwrap(node);
  if (n.type === 'StringLiteral') return n.value as string;
  if (n.type === 'TemplateLiteral' && n.expressions.length === 0) return n.quasis[0].value.cooked as string;
  return undefined;
}

/** `a.b.c` → ['a','b','c']; computed or call segments are '?'. */
export function memberChain(node: Node): string[] {
  const n = unwrap(node);
  if (n.type === 'Identifier') return [n.name as string];
  if (n.type === 'ThisExpression') return ['this'];
  if (n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') {
    const head = memberChain(n.object as Node);
    const prop = n.property as Node;
    const name = !n.computed && prop.type === 'Identifier' ? (prop.name as string) : stringValue(prop) ?? '?';
    return [...head, name];
  }
  return ['?'];
}

/** The property of an object literal by static key name. */
export function objectProperty(obj: Node, key: string): Node | undefined {
  if (obj.type !== 'ObjectExpression') return undefined;
  for (const p of obj.properties as Node[]) {
    if (p.type !== 'ObjectProperty' || p.computed) continue;
    const k = p.key as Node;
    const name = k.type === 'Identifier' ? k.name : stringValue(k);
    if (name === key) return p;
  }
  return undefined;
}

/** Every identifier name read or declared under `node` (a cheap over-approximation of what it uses). */
export function identifierNames(node: Node): Set<string> {
  const names = new Set<string>();
  walk(node, (n, ancestors) => {
    if (n.type !== 'Identifier') return;
    const parent = ancestors[ancestors.length - 1];
    // `a.b`: only `a` is a name; `{ b: 1 }`: `b` is a key, not a name
    if (parent && (parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.property === n && !parent.computed) return;
    if (parent && parent.type === 'ObjectProperty' && parent.key === n && !parent.computed && !parent.shorthand) return;
    names.add(n.name as string);
  });
  return names;
}

/** Names a declaration statement binds (`const { a, b: [c] } = …` → a, c). */
export function declaredNames(statement: Node): string[] {
  const out: string[] = [];
  const fromPattern = (p: Node | null | undefined): void => {
    if (!p) return;
    switch (p.type) {
      case 'Identifier':
        out.push(p.name as string);
        break;
      case 'ObjectPattern':
        for (const prop of p.properties as Node[]) fromPattern(prop.type === 'RestElement' ? (prop.argument as Node) : (prop.value as Node));
        break;
      case 'ArrayPattern':
        for (const el of p.elements as (Node | null)[]) fromPattern(el);
        break;
      case 'AssignmentPattern':
        fromPattern(p.left as Node);
        break;
      case 'RestElement':
        fromPattern(p.argument as Node);
        break;
    }
  };
  if (statement.type === 'VariableDeclaration') for (const d of statement.declarations as Node[]) fromPattern(d.id as Node);
  if ((statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') && statement.id) out.push(statement.id.name as string);
  return out;
}
