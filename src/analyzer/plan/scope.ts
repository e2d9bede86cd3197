/**
 * The names a function on the flow path binds, and what each holds:
 * - `context`: the handler context (`ctx`, `extra`, `{ mcpReq }`): calls on it talk to the client;
 * - `data`: local data the function builds again identically on every round (a literal, a new
 *   collection, a memoized value, an answer, the request's arguments): calls on it re-run;
 * - `other`: local, but holding something else (a value computed again each round that cannot travel
 *   in the state, an alias of module state): calls on it are effects.
 * A name the function does not bind is not local: calls on it, and writes to it, are effects.
 */
import ts from '../../typescript.cjs';
import { isFunctionLike, memberChain, unwrap } from '../ast.js';
import { LOCAL_COLLECTIONS } from './builtins.js';

export type Role = 'context' | 'data' | 'other' | 'nonlocal';

/** What the scope needs to know from the plan about an initializer. */
export interface InitializerOracle {
  /** Holds an answer: an awaited ask, a helper on the path, a batch of them. */
  isAnswer(expr: ts.Expression): boolean;
  /** An effect the plan will memoize, so the name holds its journalled value. */
  isMemoized(expr: ts.Expression): boolean;
  /** The checker's view: a local typed as plain data (arrays, strings, maps, plain objects). */
  isDataType?(node: ts.Node): boolean;
  /** The checker's view: the parameter is the handler context. */
  isContextType?(node: ts.Node): boolean;
}

interface Binding {
  /** The declaration's initializer (for a binding pattern: the whole pattern's). */
  init?: ts.Expression;
  role?: Role;
  /** A parameter: its role is decided when first asked (by name, then by type). */
  param?: { index: number; decl: ts.ParameterDeclaration };
  /** A nested function declared here (`function fmt() {}`, `const fmt = () => …`). */
  fn?: ts.FunctionLikeDeclaration;
  node: ts.Node;
}

const CONTEXT_NAMES = /^_*(ctx|context|extra|mcpCtx|requestContext|handlerContext|reqCtx)$/i;
const CONTEXT_KEYS = new Set(['mcpReq', 'sendRequest', 'sendNotification', 'signal', 'authInfo', 'requestId', 'http', '_meta', 'sessionId', 'requestInfo', 'taskStore']);

export class FunctionScope {
  /** Collected on the first question: many path functions are judged without one (no effect in them). */
  private collected: Map<string, Binding> | undefined;
  private readonly resolving = new Set<string>();

  constructor(
    readonly fn: ts.FunctionLikeDeclaration,
    private readonly oracle: InitializerOracle,
    readonly parent?: FunctionScope,
    /** Roles of the parameters, by index; undefined: decide by name and type. */
    private readonly paramRoles?: (index: number, param: ts.ParameterDeclaration) => Role | undefined,
  ) {}

  private get bindings(): Map<string, Binding> {
    if (this.collected) return this.collected;
    const bindings = (this.collected = new Map<string, Binding>());
    this.fn.parameters.forEach((decl, index) => {
      for (const name of bindingNames(decl.name)) bindings.set(name, { param: { index, decl }, node: decl });
    });
    if (this.fn.body) this.collect(this.fn.body, bindings);
    return bindings;
  }

  private paramRole(index: number, decl: ts.ParameterDeclaration): Role {
    return this.paramRoles?.(index, decl) ?? (this.looksLikeContext(decl) ? 'context' : 'data');
  }

  private looksLikeContext(param: ts.ParameterDeclaration): boolean {
    if (ts.isIdentifier(param.name) && CONTEXT_NAMES.test(param.name.text)) return true;
    if (ts.isObjectBindingPattern(param.name)) {
      return param.name.elements.some((el) => {
        const key = el.propertyName ?? el.name;
        return ts.isIdentifier(key) && CONTEXT_KEYS.has(key.text);
      });
    }
    return this.oracle.isContextType?.(param) ?? false;
  }

  /** Declarations of this function, not of functions nested in it. */
  private collect(node: ts.Node, bindings: Map<string, Binding>): void {
    const visit = (n: ts.Node): void => {
      if (ts.isVariableDeclaration(n)) {
        const init = n.initializer;
        if (init && ts.isIdentifier(n.name) && isFunctionLike(unwrap(init))) {
          bindings.set(n.name.text, { fn: unwrap(init) as ts.FunctionLikeDeclaration, node: n });
        } else {
          const loopOf = forOfIterable(n);
          for (const name of bindingNames(n.name)) bindings.set(name, { init: init ?? loopOf, node: n });
        }
      } else if (ts.isFunctionDeclaration(n) && n.name) {
        bindings.set(n.name.text, { fn: n, node: n });
        return;
      } else if (ts.isClassDeclaration(n) && n.name) {
        bindings.set(n.name.text, { role: 'other', node: n });
        return;
      } else if (ts.isCatchClause(n) && n.variableDeclaration) {
        for (const name of bindingNames(n.variableDeclaration.name)) bindings.set(name, { role: 'data', node: n });
        visit(n.block);
        return;
      }
      if (isFunctionLike(n) || ts.isClassLike(n)) return;
      ts.forEachChild(n, visit);
    };
    visit(node);
  }

  /** Bound by this function (or, for a callback, by a function around it on the path)? */
  isLocal(name: string): boolean {
    return this.bindings.has(name) || (this.parent?.isLocal(name) ?? false);
  }

  /** The function a local name holds, when it was declared as one. */
  localFunction(name: string): ts.FunctionLikeDeclaration | undefined {
    const b = this.bindings.get(name);
    if (b) return b.fn;
    return this.parent?.localFunction(name);
  }

  role(name: string): Role {
    const b = this.bindings.get(name);
    if (!b) return this.parent ? this.parent.role(name) : 'nonlocal';
    if (b.role) return b.role;
    if (b.param) return (b.role = this.paramRole(b.param.index, b.param.decl));
    if (b.fn) return 'other';
    if (this.resolving.has(name)) return 'other';
    this.resolving.add(name);
    try {
      let role = b.init ? this.roleOfValue(b.init) : 'data';
      if (role === 'other' && this.oracle.isDataType?.(b.node)) role = 'data';
      b.role = role;
      return role;
    } finally {
      this.resolving.delete(name);
    }
  }

  /** What an expression holds, as a role: the role of what it reads, or data for a fresh value. */
  roleOfValue(expr: ts.Expression): Role {
    const e = unwrap(expr);
    if (this.oracle.isAnswer(e)) return 'data';
    if (ts.isAwaitExpression(e)) return this.oracle.isMemoized(e) ? 'data' : this.roleOfValue(e.expression);
    if (this.oracle.isMemoized(e)) return 'data';
    if (ts.isIdentifier(e)) return e.text === 'undefined' ? 'data' : this.role(e.text);
    if (e.kind === ts.SyntaxKind.ThisKeyword) return 'nonlocal';
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) return this.roleOfValue(e.expression);
    if (ts.isNewExpression(e)) {
      const cls = memberChain(e.expression);
      return cls.length === 1 && LOCAL_COLLECTIONS.has(cls[0]) && !this.isLocal(cls[0]) ? 'data' : 'other';
    }
    if (ts.isConditionalExpression(e)) return worst(this.roleOfValue(e.whenTrue), this.roleOfValue(e.whenFalse));
    if (ts.isBinaryExpression(e)) {
      const k = e.operatorToken.kind;
      if (k === ts.SyntaxKind.BarBarToken || k === ts.SyntaxKind.QuestionQuestionToken || k === ts.SyntaxKind.AmpersandAmpersandToken) {
        return worst(this.roleOfValue(e.left), this.roleOfValue(e.right));
      }
      if (k === ts.SyntaxKind.EqualsToken || k === ts.SyntaxKind.CommaToken) return this.roleOfValue(e.right);
      return 'data';
    }
    if (ts.isCallExpression(e)) {
      // a method of local data returns local data (`items.filter(…)`); anything else was judged an effect
      const callee = unwrap(e.expression);
      if (ts.isPropertyAccessExpression(callee)) return this.roleOfValue(callee.expression) === 'data' ? 'data' : 'other';
      return 'other';
    }
    // literals, templates, operators, object and array literals: a fresh value
    return 'data';
  }
}

function worst(a: Role, b: Role): Role {
  if (a === 'data') return b;
  if (b === 'data') return a;
  return a === b ? a : 'other';
}

/** `for (const x of items)`: x holds an element of `items`. */
function forOfIterable(decl: ts.VariableDeclaration): ts.Expression | undefined {
  const list = decl.parent;
  const loop = list?.parent;
  if (list && ts.isVariableDeclarationList(list) && loop && (ts.isForOfStatement(loop) || ts.isForInStatement(loop)) && loop.initializer === list) {
    return ts.isForInStatement(loop) ? undefined : loop.expression;
  }
  return undefined;
}

export function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  const out: string[] = [];
  for (const el of name.elements) if (!ts.isOmittedExpression(el)) out.push(...bindingNames(el.name));
  return out;
}

/** `base`, or `base2`, `base3`…: the first that no identifier inside `within` uses, nor any of `taken`. */
export function freshName(within: ts.Node, base: string, taken: Iterable<string> = []): string {
  const used = new Set<string>(taken);
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) used.add(n.text);
    ts.forEachChild(n, visit);
  };
  visit(within);
  if (!used.has(base)) return base;
  for (let i = 2; ; i++) if (!used.has(`${base}${i}`)) return `${base}${i}`;
}
