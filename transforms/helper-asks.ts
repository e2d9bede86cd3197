/**
 * helper-asks — asks made in a helper the handler awaits.
 *
 * Before:
 *   async function confirmDelete(ctx: ServerContext, path: string): Promise<boolean> {
 *     const answer = await ctx.mcpReq.elicitInput({ message: `Delete ${path}?`, requestedSchema });
 *     return answer.action === 'accept' && answer.content?.ok === true;
 *   }
 *   server.registerTool('delete', …, async ({ path }, ctx) => {
 *     const ok = await confirmDelete(ctx, path);
 *     …
 *   });
 * After:
 *   async function confirmDelete(ctx: ServerContext, tool: string, path: string): Promise<boolean | InputRequiredResult> {
 *     const bind = bindRequest(ctx, tool, { helper: 'confirmDelete', path });
 *     …the two-pass shape, inside the helper…
 *     return answer.action === 'accept' && answer.content?.ok === true;
 *   }
 *   server.registerTool('delete', …, async ({ path }, ctx) => {
 *     const ok = await confirmDelete(ctx, 'delete', path);
 *     if (isInputRequiredResult(ok)) return ok;
 *     …
 *   });
 * The helper runs the rounds itself and hands the handler an input-required result to return; on the
 * final round it returns what it returned before. Its state is bound to the calling tool (a new `tool`
 * parameter each call site fills with its tool's name), the helper's name and its arguments, so a
 * confirmation given through one tool cannot be replayed on another tool sharing the helper.
 *
 * Refuses (marker `in-helper` at the handler's call) unless: the helper is a module-level, non-exported
 * async function with plain parameters, one of them the context its asks use; every use of it in the
 * file is `const x = await helper(…)` directly in a handler body; that handler asks nothing else, calls
 * it once, and writes nothing before the call (its code before the call re-runs every round).
 */
import { memberChain, objectProperty, stringValue, walk, type Node } from './lib/ast.js';
import { addMarker, statementOf, type PortContext } from './lib/context.js';
import { lookupHandler, type HandlerScope } from './lib/handlers.js';
import { hasSideEffect } from './lib/side-effects.js';
import { runAsJscodeshift, type FileInfo } from './lib/jscodeshift-module.js';
import { quoteString } from './lib/source-text.js';
import { helperCallers, portHandler, widenReturnType, type HelperAsks } from './two-pass-handlers.js';

interface CallerSite {
  /** `const x = await helper(…)` in the handler. */
  statement: Node;
  call: Node;
  variable: string;
  scope: HandlerScope;
}

export function portHelperAsks(ctx: PortContext, helpers: readonly HelperAsks[]): void {
  for (const helper of helpers) {
    if (!portHelper(ctx, helper) && !portVouchedHandler(ctx, helper)) {
      const callers = helperCallers(ctx, helper.fn, helper.holder);
      if (callers.length === 0) for (const { call } of helper.calls) addMarker(ctx, statementOf(call.node, call.ancestors), 'in-helper');
      for (const c of callers) addMarker(ctx, c, 'in-helper');
    }
  }
}

function portHelper(ctx: PortContext, helper: HelperAsks): boolean {
  const { fn, holder } = helper;
  const name = helperName(fn, holder);
  if (!name || fn.async !== true || (fn.body as Node).type !== 'BlockStatement' || !declaredAtModuleLevel(fn, holder, ctx.program)) return false;
  const params = fn.params as Node[];
  if (!params.every((p) => p.type === 'Identifier')) return false;
  const paramNames = params.map((p) => p.name as string);
  const ctxName = contextOf(helper, paramNames);
  if (!ctxName) return false;

  const callers = callerSites(ctx, name, fn);
  if (!callers || callers.length === 0) return false;

  // the state is bound to the calling tool, or a confirmation given to one tool would open the other
  const ctxIndex = paramNames.indexOf(ctxName);
  if (callers.some((c) => (c.call.arguments as Node[]).length <= ctxIndex)) return false;
  const toolParam = freshParam(ctx, fn, 'tool');
  const others = paramNames.filter((p) => p !== ctxName);
  const scope: HandlerScope = {
    key: `helper:${fn.start}`,
    fn,
    kind: 'tool',
    lowLevel: false,
    helper: true,
    nameText: toolParam,
    label: name,
    argsText: `{ helper: ${quoteString(name, ctx.src.style)}${others.map((o) => `, ${o}`).join('')} }`,
    ctxName,
    statements: (fn.body as Node).body as Node[],
    container: fn.body as Node,
  };
  if (!portHandler(ctx, scope, helper.calls)) return false;

  const ctxParam = params[ctxIndex];
  const paramEnd = ctxParam.typeAnnotation ? (ctxParam.typeAnnotation as Node).end : ctxParam.end;
  ctx.edits.push({ start: paramEnd, end: paramEnd, text: `, ${toolParam}${ctx.typed ? ': string' : ''}` });
  const { eol } = ctx.src.style;
  for (const caller of callers) {
    const ctxArg = (caller.call.arguments as Node[])[ctxIndex];
    ctx.edits.push({ start: ctxArg.end, end: ctxArg.end, text: `, ${caller.scope.nameText}` });
    const indent = ctx.src.indentAt(caller.statement.start);
    const guard = `if (isInputRequiredResult(${caller.variable})) return ${caller.variable}${ctx.src.style.semi}`;
    ctx.edits.push({ start: caller.statement.end, end: caller.statement.end, text: eol + indent + guard });
    widenReturnType(ctx, caller.scope);
  }
  return true;
}

/**
 * A function the analyzer traced to a handler (every site in it `auto`) although it is not an inline
 * registration callback: a handler table entry (`approve: async (args, ctx) => …`), a tool module's
 * `handler`, a function a dispatcher returns. (A factory's returned callback has no name to bind
 * and stays marked.) Ported as a handler: ctx is its last parameter, the
 * arguments its first (when it has two or more); the bind is named by the tool object's `name`, the
 * property key or the function's name.
 */
function portVouchedHandler(ctx: PortContext, helper: HelperAsks): boolean {
  if (!helper.calls.every(({ call }) => ctx.instructionOf(call)?.portability === 'auto')) return false;
  const { fn } = helper;
  if ((fn.body as Node).type !== 'BlockStatement' || fn.async !== true) return false;
  const params = fn.params as Node[];
  const last = params[params.length - 1];
  if (!last || last.type !== 'Identifier') return false;
  const name = vouchedName(helper);
  if (!name || !handsResultThrough(ctx, helper)) return false;
  const argsText = params.length >= 2 ? patternText(params[0]) : '{}';
  if (argsText === undefined) return false;
  const scope: HandlerScope = {
    key: `vouched:${fn.start}`,
    fn,
    kind: 'tool',
    lowLevel: false,
    nameText: quoteString(name, ctx.src.style),
    label: name,
    argsText,
    ctxName: last.name as string,
    statements: (fn.body as Node).body as Node[],
    container: fn.body as Node,
  };
  return portHandler(ctx, scope, helper.calls);
}

/**
 * Is whatever the function returns handed to the client unchanged? Only then may it return an
 * input-required result: a tool module's `handler` (`{ name, handler }`), or a function (or table of
 * functions) whose every use in the file is `return fn(…)` / `return table[key](…)`. A helper whose
 * value a caller uses (here or in another file) is not.
 */
function handsResultThrough(ctx: PortContext, helper: HelperAsks): boolean {
  const { fn, holder, owner } = helper;
  if (holder?.type === 'ObjectProperty' && propertyName(holder) === 'handler' && owner?.type === 'ObjectExpression') {
    return stringValue(objectProperty(owner, 'name')?.value as Node | undefined) !== undefined;
  }
  let name: string | undefined;
  if (holder?.type === 'ObjectProperty') {
    // a table entry: the table's variable must only be dispatched through
    const declarator = ctx.program && findDeclaratorOf(ctx.program, owner);
    name = declarator?.id.type === 'Identifier' ? (declarator.id.name as string) : undefined;
  } else {
    name = helperName(fn, holder);
  }
  if (!name || exported(ctx.program, name)) return false;
  let uses = 0;
  let other = false;
  walk(ctx.program, (node, ancestors) => {
    if (other || node.type !== 'Identifier' || node.name !== name) return;
    const parent = ancestors[ancestors.length - 1];
    if (parent === fn || (parent?.type === 'VariableDeclarator' && parent.id === node)) return;
    let k = ancestors.length - 1;
    // `name(…)`, `table[key](…)`, `table.key(…)`
    if (ancestors[k]?.type === 'MemberExpression' && ancestors[k].object === node) k--;
    const call = ancestors[k];
    if (call?.type !== 'CallExpression' || (call.callee !== node && call.callee !== ancestors[k + 1])) {
      other = true;
      return;
    }
    let up = k - 1;
    if (ancestors[up]?.type === 'AwaitExpression') up--;
    if (ancestors[up]?.type !== 'ReturnStatement') other = true;
    else uses++;
  });
  return !other && uses > 0;
}

function findDeclaratorOf(program: Node, init: Node | undefined): Node | undefined {
  let found: Node | undefined;
  walk(program, (n) => {
    if (!found && n.type === 'VariableDeclarator' && n.init === init) found = n;
  });
  return found;
}

function exported(program: Node, name: string): boolean {
  let found = false;
  walk(program, (n) => {
    if (n.type === 'ExportSpecifier' && (n.local as Node).type === 'Identifier' && n.local.name === name) found = true;
    if (n.type === 'ExportNamedDeclaration' && n.declaration) {
      const d = n.declaration as Node;
      if ((d.type === 'FunctionDeclaration' && d.id?.name === name) || (d.type === 'VariableDeclaration' && (d.declarations as Node[]).some((x) => x.id.type === 'Identifier' && x.id.name === name))) found = true;
    }
  });
  return found;
}

function vouchedName(helper: HelperAsks): string | undefined {
  const { fn, holder, owner } = helper;
  // `{ name: 'refund', config, handler: async (ctx) => … }`: the tool object's name
  const named = owner?.type === 'ObjectExpression' ? stringValue(objectProperty(owner, 'name')?.value as Node | undefined) : undefined;
  return named ?? propertyName(holder) ?? helperName(fn, holder);
}

function propertyName(holder: Node | undefined): string | undefined {
  if (holder?.type !== 'ObjectProperty' || holder.computed) return undefined;
  const key = holder.key as Node;
  return key.type === 'Identifier' ? (key.name as string) : key.type === 'StringLiteral' ? (key.value as string) : undefined;
}

/** A plain parameter as a bind argument: `args` → `args`; `{ a, b }` → `{ a, b }`; anything else refused. */
function patternText(param: Node): string | undefined {
  if (param.type === 'Identifier') return param.name as string;
  if (param.type !== 'ObjectPattern') return undefined;
  const names: string[] = [];
  for (const p of param.properties as Node[]) {
    if (p.type !== 'ObjectProperty' || !p.shorthand || (p.value as Node).type !== 'Identifier') return undefined;
    names.push(p.value.name as string);
  }
  return `{ ${names.join(', ')} }`;
}

/** A parameter name the helper does not use yet. */
function freshParam(ctx: PortContext, fn: Node, base: string): string {
  const used = new Set<string>();
  walk(fn, (n) => n.type === 'Identifier' && used.add(n.name as string));
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base}${i}`;
  return name;
}

function helperName(fn: Node, holder: Node | undefined): string | undefined {
  if (fn.type === 'FunctionDeclaration' && fn.id) return fn.id.name as string;
  if (holder?.type === 'VariableDeclarator' && holder.id.type === 'Identifier') return holder.id.name as string;
  return undefined;
}

/** A module-level function or const, not exported (other files could call it without the guard). */
function declaredAtModuleLevel(fn: Node, holder: Node | undefined, program: Node): boolean {
  const body = program.body as Node[];
  if (fn.type === 'FunctionDeclaration') return body.includes(fn);
  return !!holder && body.some((s) => s.type === 'VariableDeclaration' && (s.declarations as Node[]).includes(holder));
}

/** The parameter the helper's asks use as their context (`ctx.mcpReq.…`); server-receiver asks need one named like a context. */
function contextOf(helper: HelperAsks, params: string[]): string | undefined {
  const roots = new Set<string>();
  for (const { call } of helper.calls) {
    const callee = call.node.type === 'CallExpression' ? memberChain(call.node.callee as Node) : [];
    const at = callee.indexOf('mcpReq');
    if (at === 1) roots.add(callee[0]);
  }
  if (roots.size > 1) return undefined;
  const [root] = roots;
  if (root) return params.includes(root) ? root : undefined;
  return params.find((p) => p === 'ctx' || p === 'extra' || p === 'context');
}

/** Every use of the helper, if each one is `const x = await helper(…)` alone in a handler that asks nothing else. */
function callerSites(ctx: PortContext, name: string, fn: Node): CallerSite[] | undefined {
  const sites: CallerSite[] = [];
  let foreign = false;
  walk(ctx.program, (node, ancestors) => {
    if (foreign || node.type !== 'Identifier' || node.name !== name) return;
    const parent = ancestors[ancestors.length - 1];
    if (parent === fn || (parent?.type === 'VariableDeclarator' && parent.id === node)) return; // the declaration itself
    if ((parent?.type === 'MemberExpression' || parent?.type === 'OptionalMemberExpression') && parent.property === node && !parent.computed) return;
    const site = callerSite(ctx, node, ancestors);
    if (site) sites.push(site);
    else foreign = true;
  });
  if (foreign) return undefined;
  // one call per handler, and no other ask in it: two state machines cannot share one requestState
  const byHandler = new Map<string, number>();
  for (const s of sites) byHandler.set(s.scope.key, (byHandler.get(s.scope.key) ?? 0) + 1);
  if ([...byHandler.values()].some((n) => n > 1)) return undefined;
  for (const call of ctx.calls) {
    const lookup = lookupHandler(call.ancestors, ctx);
    if (lookup.type === 'handler' && byHandler.has(lookup.scope.key)) return undefined;
  }
  return sites;
}

function callerSite(ctx: PortContext, id: Node, ancestors: readonly Node[]): CallerSite | undefined {
  const [call, awaited, declarator, declaration] = [1, 2, 3, 4].map((k) => ancestors[ancestors.length - k]);
  if (call?.type !== 'CallExpression' || call.callee !== id) return undefined;
  if (awaited?.type !== 'AwaitExpression' || declarator?.type !== 'VariableDeclarator' || declarator.init !== awaited) return undefined;
  if (declarator.id.type !== 'Identifier' || declarator.id.typeAnnotation) return undefined;
  if (declaration?.type !== 'VariableDeclaration' || (declaration.declarations as Node[]).length !== 1) return undefined;
  const lookup = lookupHandler(ancestors.slice(0, -4), ctx);
  if (lookup.type !== 'handler' || !lookup.scope.statements.includes(declaration)) return undefined;
  // the handler's code before the call re-runs every round: it must not write anything
  const index = lookup.scope.statements.indexOf(declaration);
  // (conservative: any assignment counts, locals included)
  if (lookup.scope.statements.slice(0, index).some((s) => hasSideEffect(s, new Set()))) return undefined;
  return { statement: declaration, call, variable: declarator.id.name as string, scope: lookup.scope };
}

export const parser = 'ts';

/** jscodeshift module: helpers are ported by the same engine as handlers, so it runs too. */
export default function transformer(file: FileInfo, _api: unknown, options: Record<string, unknown> = {}): string | undefined {
  return runAsJscodeshift(file, options, { twoPass: true, capabilityBranches: false, retireRoots: false, urlElicitation: false, imports: true });
}
