/**
 * The edits a `FilePlan` makes (see transforms/resumable-handlers.ts for the shape), each checked
 * against a TypeScript parse of the text first: a position that does not hold what the plan says
 * refuses the whole file.
 */
import ts from '../../src/typescript.cjs';
import type { FilePlan, RuntimeName } from '../../src/analyzer/plan/model.js';
import { nodesAt, nodesStartingAt, PlanMismatchError, stripWrappers } from './plan-positions.js';
import type { Edit, SourceText } from './source-text.js';

/** Insertions at one offset: the outer construct opens first and closes last. */
const OPEN_OUTER = -20;
const OPEN_INNER = -10;
const CLOSE_INNER = 10;
/** A cast of a read sits inside a memo that starts or ends with it. */
const CAST_OPEN = -5;
const CAST_CLOSE = 5;
const CLOSE_OUTER = 20;

/**
 * `unread`: also edit the declarations the port leaves unread (plan.unread); only when every edit that
 * drops their last read is applied too (the asks, and the retired roots requests when the plan has some).
 */
export function resumableEdits(src: SourceText, sf: ts.SourceFile, plan: FilePlan, path: string, unread = true): Edit[] {
  const local = (name: RuntimeName): string => {
    const entry = plan.runtimeImports.find((r) => r.name === name);
    if (!entry) throw new Error(`${path}: the plan uses ${name} without importing it`);
    return entry.local;
  };
  const mismatch = (at: number, expected: string): never => {
    throw new PlanMismatchError(path, sf, at, expected);
  };
  const edits: Edit[] = [];
  const { style } = src;

  for (const w of plan.wraps) {
    if (!nodesAt(sf, w.start, w.end).some((n) => ts.isExpression(n))) mismatch(w.start, 'the handler argument of a registration');
    const options = w.capabilities ? `, { capabilities: () => ${w.capabilities}.getClientCapabilities() }` : '';
    edits.push({ start: w.start, end: w.start, text: `${local('resumable')}(${w.name ?? 'undefined'}, `, order: OPEN_OUTER });
    edits.push({ start: w.end, end: w.end, text: `${options})`, order: CLOSE_OUTER });
  }

  for (const a of plan.asks) {
    const nodes = nodesAt(sf, a.start, a.end);
    if (a.statementThrow) {
      const thrown = nodes.find(ts.isThrowStatement);
      const created = thrown ? stripWrappers(thrown.expression) : undefined;
      if (!created || !ts.isNewExpression(created) || !a.params || created.arguments?.[0]?.getStart(sf) !== a.params.start) mismatch(a.start, 'a throw of UrlElicitationRequiredError');
      const tail = src.slice(a.params!.end, a.end);
      edits.push({ start: a.start, end: a.params!.start, text: `return ${local(a.runtime)}(` });
      edits.push({ start: a.params!.end, end: a.end, text: `)${tail.trimEnd().endsWith(';') ? ';' : ''}` });
      continue;
    }
    const call = nodes.find(ts.isCallExpression);
    if (!call) mismatch(a.start, 'a legacy request call');
    if (!a.params) {
      edits.push({ start: a.start, end: a.end, text: `${local(a.runtime)}()` });
      continue;
    }
    const kept = askArgumentsOf(call!)[0];
    if (!kept || kept.getStart(sf) !== a.params.start || kept.end !== a.params.end) mismatch(a.params.start, 'the request argument of the legacy call');
    edits.push({ start: a.start, end: a.params.start, text: `${local(a.runtime)}(` });
    // a raw request's result schema stays: the answer keeps the legacy call's type and check
    const schema = a.resultSchema ? `, ${src.slice(a.resultSchema.start, a.resultSchema.end)}` : '';
    edits.push({ start: a.params.end, end: a.end, text: `${schema})` });
  }

  // independent sibling asks: one `Promise.all` before the first `if`, each `await` of a legacy call read from it
  const typed = /\.[cm]?tsx?$/.test(path);
  for (const b of plan.batches) {
    const guard = nodesStartingAt(sf, b.at).find(ts.isIfStatement);
    if (!guard) mismatch(b.at, 'the first if statement of sibling asks');
    const elements = b.members.map((m, i) => {
      const awaited = nodesAt(sf, m.awaited.start, m.awaited.end).find(ts.isAwaitExpression);
      const call = awaited ? stripWrappers(awaited.expression) : undefined;
      if (!call || !ts.isCallExpression(call) || call.getStart(sf) !== m.ask.start || call.end !== m.ask.end) mismatch(m.awaited.start, 'an await of a legacy request call');
      if (!nodesAt(sf, m.condition.start, m.condition.end).some((n) => ts.isExpression(n))) mismatch(m.condition.start, 'the condition of a sibling ask');
      const params = m.ask.params ? src.slice(m.ask.params.start, m.ask.params.end) : '';
      edits.push({ start: m.awaited.start, end: m.awaited.end, text: `${b.name}[${i}]${typed ? '!' : ''}` });
      const schema = m.ask.resultSchema ? `, ${src.slice(m.ask.resultSchema.start, m.ask.resultSchema.end)}` : '';
      return `${src.slice(m.condition.start, m.condition.end)} ? ${local(m.ask.runtime)}(${params}${schema}) : undefined`;
    });
    edits.push({ start: b.at, end: b.at, text: `const ${b.name} = await Promise.all([${elements.join(', ')}])${style.semi}${style.eol}${src.indentAt(b.at)}`, order: OPEN_OUTER });
  }

  for (const m of plan.memos) {
    const nodes = nodesAt(sf, m.start, m.end);
    if (!nodes.some((n) => ts.isExpression(n))) mismatch(m.start, 'an expression to memoize');
    // names and paths whose narrowing the closure would lose come in as arguments of an arrow around `once`
    const paths = m.narrowedPaths ?? [];
    const params = [...(m.narrowed ?? []), ...paths.map((p) => p.param)];
    const args = [...(m.narrowed ?? []), ...paths.map((p) => src.slice(p.start, p.end))];
    for (const p of paths) {
      if (!nodesAt(sf, p.start, p.end).some(ts.isPropertyAccessExpression)) mismatch(p.start, 'a narrowed property path');
      edits.push({ start: p.start, end: p.end, text: p.param });
    }
    const open = params.length > 0 ? `((${params.join(', ')}) => ` : '';
    const thunk = `${open}${local('once')}(${m.async ? 'async ' : ''}() => `;
    const restored = (m.restored ?? []).map((name) => {
      const v = name === 'restored' ? 'restored2' : 'restored';
      return `, ${local('binding')}(() => ${name}, (${v}) => { ${name} = ${v}${style.semi || ';'} })`;
    });
    const close = `${(m.mutables ?? []).map((name) => `, ${name}`).join('')}${restored.join('')})${params.length > 0 ? `)(${args.join(', ')})` : ''}`;
    if (m.awaitStart !== undefined) {
      const awaited = nodesStartingAt(sf, m.awaitStart).find(ts.isAwaitExpression);
      if (!awaited || awaited.expression.getStart(sf) !== m.start || awaited.end !== m.end) mismatch(m.awaitStart, 'an await of the memoized expression');
      edits.push({ start: m.awaitStart, end: m.start, text: `await ${thunk}`, order: OPEN_INNER });
      edits.push({ start: m.end, end: m.end, text: close, order: CLOSE_INNER });
    } else {
      // a parenthesized memo at the start of a statement, in a file without semicolons, must not continue the line before
      const guard = m.parens && style.semi === '' && startsStatement(sf, m.start) ? ';' : '';
      edits.push({ start: m.start, end: m.start, text: `${guard}${m.parens ? '(' : ''}await ${thunk}`, order: OPEN_INNER });
      edits.push({ start: m.end, end: m.end, text: `${close}${m.cast ? ` as ${m.cast}` : ''}${m.parens ? ')' : ''}${m.nonNull ? '!' : ''}`, order: CLOSE_INNER });
    }
  }

  // a read of data after the answer, taken right after the value is made: `const infoSize = await once(() => info.size);`
  for (const n of plan.snapshots) {
    if (!nodesAt(sf, n.indentFrom, n.at).some(ts.isVariableStatement)) mismatch(n.indentFrom, 'the statement that makes a value read after the answer');
    if (!nodesAt(sf, n.read.start, n.read.end).some((x) => ts.isExpression(x))) mismatch(n.read.start, 'a read of data after the answer');
    for (const u of n.uses) {
      if (!nodesAt(sf, u.start, u.end).some((x) => ts.isExpression(x))) mismatch(u.start, 'a read of data after the answer');
      edits.push({ start: u.start, end: u.end, text: n.name });
    }
    // after a comment that ends the statement's line, not between the statement and it
    const lineEnd = src.lineEndIncludingEol(n.at);
    const rest = src.slice(n.at, lineEnd);
    const tail = /^[ \t]*(\/\/[^\r\n]*)?\r?\n?$/.exec(rest);
    const at = tail ? n.at + (tail[0].length - (/\r?\n$/.exec(tail[0])?.[0].length ?? 0)) : n.at;
    const statement = `const ${n.name} = await ${local('once')}(() => ${src.slice(n.read.start, n.read.end)})${style.semi || ';'}`;
    edits.push({ start: at, end: at, text: `${style.eol}${src.indentAt(n.indentFrom)}${statement}`, order: CLOSE_OUTER + 10 });
  }

  for (const g of plan.catchGuards) {
    const block = nodesStartingAt(sf, g.blockStart).find(ts.isBlock);
    const clause = block?.parent;
    if (!block || !clause || !ts.isCatchClause(clause)) return mismatch(g.blockStart, 'the block of a catch clause');
    const binding = g.binding ?? g.fresh;
    if (!binding) mismatch(g.blockStart, 'a catch binding');
    let after = `if (${local('isSuspension')}(${binding})) throw ${binding};`;
    if (g.paramAt !== undefined) {
      if (clause.variableDeclaration || src.slice(g.paramAt - 'catch'.length, g.paramAt) !== 'catch') mismatch(g.paramAt, 'a catch without a binding');
      edits.push({ start: g.paramAt, end: g.paramAt, text: ` (${binding})` });
    } else if (g.pattern) {
      const pattern = clause.variableDeclaration?.name;
      if (!pattern || pattern.getStart(sf) !== g.pattern.start || pattern.end !== g.pattern.end) mismatch(g.pattern.start, 'the destructuring of a catch binding');
      edits.push({ start: g.pattern.start, end: g.pattern.end, text: binding! });
      after += ` const ${src.slice(g.pattern.start, g.pattern.end)} = ${binding}${style.semi || ';'}`;
    } else if (!clause.variableDeclaration || !ts.isIdentifier(clause.variableDeclaration.name) || clause.variableDeclaration.name.text !== g.binding) {
      mismatch(g.blockStart, `a catch binding named ${g.binding}`);
    }
    edits.push({ start: g.blockStart + 1, end: g.blockStart + 1, text: blockPrefix(src, block, after), order: OPEN_INNER });
  }

  for (const g of plan.finallyGuards) {
    const block = nodesAt(sf, g.blockStart, g.blockEnd).find(ts.isBlock);
    if (!block || !block.parent || !ts.isTryStatement(block.parent) || block.parent.finallyBlock !== block) return mismatch(g.blockStart, 'the block of a finally clause');
    if (g.runs) {
      // only these statements wait for the completing round; the writes between them run every round
      for (const run of g.runs) {
        edits.push({ start: run.start, end: run.start, text: `if (!${local('suspended')}()) { `, order: OPEN_OUTER });
        edits.push({ start: run.end, end: run.end, text: ' }', order: CLOSE_OUTER });
      }
      continue;
    }
    edits.push({ start: g.blockStart + 1, end: g.blockStart + 1, text: ` if (!${local('suspended')}()) {`, order: OPEN_OUTER });
    edits.push({ start: g.blockEnd - 1, end: g.blockEnd - 1, text: '} ', order: CLOSE_OUTER });
  }

  for (const c of plan.capabilityReads) {
    const call = nodesAt(sf, c.start, c.end).find(ts.isCallExpression);
    if (!call || !ts.isPropertyAccessExpression(stripWrappers(call.expression)) || (stripWrappers(call.expression) as ts.PropertyAccessExpression).name.text !== 'getClientCapabilities') {
      mismatch(c.start, 'a getClientCapabilities() call');
    }
    edits.push({ start: c.start, end: c.start, text: `(${local('clientCapabilities')}() ?? `, order: OPEN_INNER });
    edits.push({ start: c.end, end: c.end, text: ')', order: CLOSE_INNER });
  }

  // a live read of outer state whose narrowing came from a check now memoized: `token!.length`
  for (const at of plan.nonNullReads) {
    if (!/[\w$\]]$/.test(src.slice(Math.max(0, at - 1), at))) mismatch(at, 'the end of a read of outer state');
    edits.push({ start: at, end: at, text: '!' });
  }

  // a live read of outer state narrowed otherwise by a check now memoized: `(mode as 'live')`, inside any memo that holds it
  for (const c of plan.castReads) {
    if (!nodesAt(sf, c.start, c.end).some((n) => ts.isIdentifier(n) || ts.isPropertyAccessExpression(n))) mismatch(c.start, 'a read of outer state');
    edits.push({ start: c.start, end: c.start, text: '(', order: CAST_OPEN });
    edits.push({ start: c.end, end: c.end, text: ` as ${c.type})`, order: CAST_CLOSE });
  }

  for (const a of plan.asyncInserts) {
    const starts = nodesStartingAt(sf, a.at);
    const ok = starts.some((n) => ts.isArrowFunction(n) || (ts.isIdentifier(n) && !!n.parent && ts.isMethodDeclaration(n.parent))) || src.slice(a.at, a.at + 'function'.length) === 'function';
    if (!ok) mismatch(a.at, 'the start of a function');
    edits.push({ start: a.at, end: a.at, text: 'async ', order: OPEN_OUTER });
  }
  if (unread) for (const u of plan.unread) {
    const kinds = UNREAD_KINDS[u.expect.kind]();
    const node = nodesStartingAt(sf, u.expect.at).find((n) => kinds.includes(n.kind));
    if (!node || unreadName(node, sf) !== u.expect.name) mismatch(u.expect.at, `the ${u.expect.kind} \`${u.expect.name}\` the port leaves unread`);
    edits.push({ start: u.start, end: u.end, text: u.text });
  }
  return edits;
}

// read on use: a compiler value at module level would load the compiler when this module is imported.
// `binding-element`: a name a declaration binds, an element of a pattern or a variable's declarator
// (`const server = ctx.server`); `import`: either form of import, `import … from` or `import x = require(…)`.
const UNREAD_KINDS: Record<FilePlan['unread'][number]['expect']['kind'], () => ts.SyntaxKind[]> = {
  parameter: () => [ts.SyntaxKind.Parameter],
  'binding-element': () => [ts.SyntaxKind.BindingElement, ts.SyntaxKind.VariableDeclaration],
  'import-specifier': () => [ts.SyntaxKind.ImportSpecifier],
  'import-clause': () => [ts.SyntaxKind.ImportClause],
  import: () => [ts.SyntaxKind.ImportDeclaration, ts.SyntaxKind.ImportEqualsDeclaration],
  type: () => [ts.SyntaxKind.TypeAliasDeclaration, ts.SyntaxKind.InterfaceDeclaration],
  // a `#private` field: its declaration, or the `#name` of a write `this.#name = …;` that goes with it
  member: () => [ts.SyntaxKind.PropertyDeclaration, ts.SyntaxKind.PrivateIdentifier],
};

/** The name the plan gives an unread declaration: its own name, or an import's module. */
function unreadName(node: ts.Node, sf: ts.SourceFile): string | undefined {
  if (ts.isImportDeclaration(node)) return ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : undefined;
  if (ts.isPrivateIdentifier(node)) return node.text;
  if (ts.isImportEqualsDeclaration(node)) {
    const ref = node.moduleReference;
    return ts.isExternalModuleReference(ref) && ts.isStringLiteralLike(ref.expression) ? ref.expression.text : undefined;
  }
  const name = (node as { name?: ts.Node }).name;
  return name ? name.getText(sf) : undefined;
}

/** The arguments the legacy method receives: the call's, or those after `this` of `.call(owner, …)` / in the list of `.apply(owner, [ … ])`. */
function askArgumentsOf(call: ts.CallExpression): readonly ts.Expression[] {
  const head = stripWrappers(call.expression);
  if (ts.isPropertyAccessExpression(head) && head.name.text === 'call' && call.arguments.length >= 2) return call.arguments.slice(1);
  if (ts.isPropertyAccessExpression(head) && head.name.text === 'apply' && call.arguments.length === 2) {
    const list = stripWrappers(call.arguments[1]);
    if (ts.isArrayLiteralExpression(list)) return list.elements;
  }
  return call.arguments;
}

/** Is `at` the first token of an expression statement? */
function startsStatement(sf: ts.SourceFile, at: number): boolean {
  return nodesStartingAt(sf, at).some((n) => ts.isExpressionStatement(n));
}

/**
 * Text inserted right after a block's `{`: on a line of its own, indented like the block's first
 * statement, when the block opens a line; on the same line otherwise (`{ return x; }`).
 */
function blockPrefix(src: SourceText, block: ts.Block, statement: string): string {
  const open = block.getStart();
  const restOfLine = src.slice(open + 1, src.lineEndIncludingEol(open)).trim();
  if (restOfLine.length > 0) return ` ${statement}`;
  const first = block.statements[0];
  const indent = first ? src.indentAt(first.getStart()) : src.indentAt(open) + src.style.indentUnit;
  return `${src.style.eol}${indent}${statement}`;
}
