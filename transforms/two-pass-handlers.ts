/**
 * two-pass-handlers — the round/step engine: rewrites every handler whose legacy asks are all
 * portable into the MRTR two-pass shape.
 *
 * Before:
 *   server.registerTool('delete_file', { inputSchema }, async ({ path }, ctx) => {
 *     const answer = await ctx.mcpReq.elicitInput({ message: `Delete ${path}?`, requestedSchema });
 *     if (answer.action !== 'accept') return notDeleted;
 *     …
 *   });
 * After:
 *   server.registerTool('delete_file', { inputSchema }, async ({ path }, ctx) => {
 *     const bind = bindRequest(ctx, 'delete_file', { path });
 *     const state = await continuation.open<{ step: 'answer' }>(ctx, bind);
 *     const answerRequest: ElicitRequestFormParams = { message: `Delete ${path}?`, requestedSchema };
 *     const answer = state?.step === 'answer' ? elicitationAnswer(ctx.mcpReq.inputResponses, 'answer', answerRequest.requestedSchema) : undefined;
 *     if (answer === undefined) {
 *       return inputRequired({ inputRequests: { answer: inputRequired.elicit(answerRequest) }, requestState: await continuation.seal(ctx, { step: 'answer', bind }) });
 *     }
 *     if (answer.action !== 'accept') return notDeleted;
 *     …
 *   });
 *
 * Independent asks (adjacent, no data or control dependence) share one round, and a batch asked again
 * keeps the answers it already has; dependent asks become steps whose earlier answers travel in the
 * sealed state. Side effects before the last ask move after the last answer when nothing before it
 * depends on them and no early return lies between.
 *
 * Refuses (leaves the handler untouched, marker on the site): asks in loops, try blocks, nested
 * callbacks, races, larger expressions, deeper control flow than one `if` (`branching-statement`),
 * dynamic params, handlers it cannot bind, side effects it cannot move (`side-effect-before-ask`), and
 * any handler with a site the analyzer did not call `auto`. Leaves dual-era handlers alone. Asks in
 * helpers are returned to the pipeline for helper-asks.
 */
import type { ReasonId } from '../src/analyzer/reasons.js';
import { INELIGIBLE_ENTRY_POINTS, MARKERS, MRTR_API, SET_REQUEST_HANDLER } from '../src/vocabulary.js';
import { declaredNames, identifierNames, isFunction, memberChain, objectProperty, walk, type Node } from './lib/ast.js';
import { classifyAsk } from './lib/ask-shape.js';
import { addMarker, statementOf, type PortContext } from './lib/context.js';
import { lookupHandler, type HandlerScope } from './lib/handlers.js';
import { decodeRequest, type DecodedRequest, type LegacyCall } from './lib/legacy-calls.js';
import { NameScope } from './lib/names.js';
import { runAsJscodeshift, type FileInfo } from './lib/jscodeshift-module.js';
import { capabilityEdits } from './capability-branches.js';
import { urlRequest } from './url-elicitation.js';
import { hasSideEffect, writtenNames } from './lib/side-effects.js';
import { quoteString, type SourceStyle, type SourceText } from './lib/source-text.js';

/** One ask the engine rewrites. */
interface Ask {
  call: LegacyCall;
  request: DecodedRequest;
  shape: 'declared' | 'discarded' | 'throw';
  statement: Node;
  declarator?: Node;
  /** The block (or switch case) whose direct child the statement is. */
  container: Node;
  /** The statement of the handler's own list that holds it (itself, or its `if`). */
  top: Node;
  /** inputRequests key, and the property carrying the answer in the sealed state. */
  key: string;
  /** Variable holding the answer (undefined for a URL-elicitation throw). */
  varName?: string;
}

interface Step {
  name: string;
  asks: Ask[];
  terminal: boolean;
}

/** Asks found in a function that is not a handler (a helper), grouped by that function. */
export interface HelperAsks {
  fn: Node;
  /** The node holding the function (its declarator or object property, or the Program / export for a declaration). */
  holder: Node | undefined;
  /** The node holding the holder (e.g. the object literal of a property). */
  owner: Node | undefined;
  calls: { call: LegacyCall; fnIndex: number }[];
}

/** Ports every handler with portable asks; marks the rest; returns the asks made in helpers. */
export function portHandlers(ctx: PortContext): HelperAsks[] {
  const groups = new Map<string, { scope: HandlerScope; calls: { call: LegacyCall; fnIndex: number }[] }>();
  const helpers = new Map<Node, HelperAsks>();
  for (const call of ctx.calls) {
    if (ctx.consumed.has(call)) continue;
    const lookup = lookupHandler(call.ancestors, ctx);
    if (lookup.type === 'helper' && wanted(ctx, call) && isPlainHelperSite(ctx, call, lookup.fnIndex)) {
      const group = helpers.get(lookup.fn) ?? { fn: lookup.fn, holder: call.ancestors[lookup.fnIndex - 1], owner: call.ancestors[lookup.fnIndex - 2], calls: [] };
      group.calls.push({ call, fnIndex: lookup.fnIndex });
      helpers.set(lookup.fn, group);
      continue;
    }
    if (lookup.type !== 'handler') {
      if (wanted(ctx, call)) markOutsideHandler(ctx, call, lookup);
      continue;
    }
    const group = groups.get(lookup.scope.key) ?? { scope: lookup.scope, calls: [] };
    group.calls.push({ call, fnIndex: lookup.fnIndex });
    groups.set(lookup.scope.key, group);
  }
  for (const { scope, calls } of groups.values()) {
    // a jscodeshift module limited to one concern leaves handlers that also need another alone
    if (calls.every(({ call }) => wanted(ctx, call))) portHandler(ctx, scope, calls);
  }
  return [...helpers.values()];
}

/** A helper site the helper port may take: auto (or no verdict) and not in a notification/timer/hook callback. */
function isPlainHelperSite(ctx: PortContext, call: LegacyCall, fnIndex: number): boolean {
  const instruction = ctx.instructionOf(call);
  if (instruction && instruction.portability !== 'auto') return false;
  return entryPointReason(call.ancestors, fnIndex) === undefined;
}

function wanted(ctx: PortContext, call: LegacyCall): boolean {
  // with `--roots config` roots belong to retire-roots, never to a round
  if (call.kind === 'roots' && ctx.options.roots !== 'ask') return false;
  const url = call.form === 'url-elicitation-error' || decodeRequest(call)?.url === true;
  return url ? ctx.enabled.urlElicitation : ctx.enabled.twoPass;
}

/** Rewrites one handler (or helper) scope; false when it was refused (markers say why) or left alone. */
export function portHandler(ctx: PortContext, scope: HandlerScope, calls: { call: LegacyCall; fnIndex: number }[]): boolean {
  // 1. the analyzer's verdicts win: one non-auto site leaves the whole handler to a human
  const refused = calls.filter(({ call }) => {
    const i = ctx.instructionOf(call);
    return i !== undefined && i.portability !== 'auto';
  });
  if (refused.length > 0) {
    for (const { call } of refused) {
      const { portability, reasons } = ctx.instructionOf(call)!;
      if (portability === 'guarded') continue; // already dual-era: nothing to do, nothing to mark
      const statement = statementOf(call.node, call.ancestors);
      for (const reason of reasons.length > 0 ? reasons : ['unknown-handler-shape']) addMarker(ctx, statement, reason);
    }
    return refused.some(({ call }) => ctx.instructionOf(call)!.portability !== 'guarded') ? markRest(ctx, calls) : false;
  }
  // 2. a site a human was already asked about (a todo or ignore marker above it) stays theirs
  if (calls.some(({ call }) => markedAbove(ctx, statementOf(call.node, call.ancestors)))) return false;
  // dual-era code (an MRTR arm next to the legacy one, or a legacy arm behind an era check) is already done
  if (usesMrtr(scope.fn) || calls.some(({ call }) => eraGuarded(call.ancestors))) return false;
  // 3. our own shape checks
  const asks: Ask[] = [];
  const problems: { statement: Node; reason: ReasonId }[] = [];
  const names = new NameScope(ctx.program);
  const keys = new Set<string>();
  for (const { call, fnIndex } of calls) {
    const shape = classifyAsk(call, fnIndex);
    if (shape.type === 'manual') {
      problems.push({ statement: shape.statement, reason: shape.reason });
      continue;
    }
    const request = decodeRequest(call);
    if (!request) {
      problems.push({ statement: shape.statement, reason: 'dynamic-request' });
      continue;
    }
    const placement = placeInScope(shape.statement, call.ancestors, scope);
    if (!placement) {
      problems.push({ statement: shape.statement, reason: 'branching-statement' });
      continue;
    }
    asks.push({ call, request, shape: shape.type, statement: shape.statement, declarator: shape.type === 'declared' ? shape.declarator : undefined, ...placement, key: '' });
  }
  if (problems.length > 0) {
    for (const p of problems) addMarker(ctx, p.statement, p.reason);
    return markRest(ctx, calls);
  }
  asks.sort((a, b) => a.call.node.start - b.call.node.start);
  for (const ask of asks) nameAsk(ask, names, keys);

  const steps = planSteps(asks, scope);
  const orderProblem = checkStepOrder(steps, scope);
  if (orderProblem) {
    addMarker(ctx, orderProblem.statement, 'branching-statement');
    return markRest(ctx, calls);
  }
  const moves = planSideEffects(steps, scope);
  if ('blocked' in moves) {
    addMarker(ctx, moves.blocked, 'side-effect-before-ask');
    return markRest(ctx, calls);
  }
  emitHandler(ctx, scope, steps, moves.moved, names);
  return true;
}

/**
 * A refused handler keeps every legacy call it has: the ones without a marker of their own get
 * `not-ported`, so none is left behind silently. Returns false (the handler was not ported).
 */
function markRest(ctx: PortContext, calls: readonly { call: LegacyCall }[]): false {
  for (const { call } of calls) {
    const statement = statementOf(call.node, call.ancestors);
    if (!ctx.markers.some((m) => m.line === statement.loc.start.line)) addMarker(ctx, statement, 'not-ported');
  }
  return false;
}

/** Where an ask statement sits: directly in the handler's list, or in one `if` arm of it. */
function placeInScope(statement: Node, ancestors: readonly Node[], scope: HandlerScope): { container: Node; top: Node } | undefined {
  const idx = ancestors.indexOf(statement);
  const parent = idx >= 0 ? ancestors[idx - 1] : ancestors[ancestors.length - 1];
  const grand = idx >= 0 ? ancestors[idx - 2] : ancestors[ancestors.length - 2];
  if (parent === scope.container) return { container: parent, top: statement };
  if (
    parent?.type === 'BlockStatement' &&
    grand?.type === 'IfStatement' &&
    (grand.consequent === parent || grand.alternate === parent) &&
    scope.statements.includes(grand)
  ) {
    return { container: parent, top: grand };
  }
  return undefined;
}

const BASE_NAMES: Record<string, string> = { elicitation: 'answer', url: 'urlAnswer', sampling: 'sampled', roots: 'listedRoots' };

function nameAsk(ask: Ask, names: NameScope, keys: Set<string>): void {
  const id = ask.declarator?.id as Node | undefined;
  const plainId = id && id.type === 'Identifier' && !id.typeAnnotation ? (id.name as string) : undefined;
  if (ask.shape === 'throw') {
    ask.key = names.fresh('urlElicitation');
  } else if (plainId) {
    ask.varName = plainId;
    ask.key = keys.has(plainId) ? names.fresh(plainId) : plainId;
  } else {
    const base = BASE_NAMES[ask.request.url ? 'url' : ask.request.kind];
    ask.varName = names.fresh(base);
    ask.key = ask.varName;
  }
  keys.add(ask.key);
}

/** Batches independent adjacent asks into one round; everything else is a step of its own. */
function planSteps(asks: Ask[], scope: HandlerScope): Step[] {
  const steps: Step[] = [];
  for (const ask of asks) {
    const current = steps[steps.length - 1];
    if (current && !current.terminal && ask.shape !== 'throw' && canJoin(current, ask, scope)) {
      current.asks.push(ask);
      continue;
    }
    steps.push({ name: ask.key, asks: [ask], terminal: ask.shape === 'throw' });
  }
  return steps;
}

function canJoin(step: Step, ask: Ask, scope: HandlerScope): boolean {
  const last = step.asks[step.asks.length - 1];
  if (last.container !== ask.container) return false;
  const list = containerStatements(last.container, scope);
  const from = list.indexOf(last.statement);
  const to = list.indexOf(ask.statement);
  if (from < 0 || to < 0) return false;
  const answerNames = new Set<string>();
  for (const a of step.asks) {
    if (a.varName) answerNames.add(a.varName);
    if (a.declarator) for (const n of declaredNames(a.statement)) answerNames.add(n);
  }
  const between = list.slice(from + 1, to);
  const declaredBetween = new Set(between.flatMap((s) => declaredNames(s)));
  for (const s of between) {
    if (hasControlTransfer(s) || hasSideEffect(s, new Set())) return false;
    if ([...identifierNames(s)].some((n) => answerNames.has(n))) return false;
  }
  const used = ask.request.params ? identifierNames(ask.request.params) : new Set<string>();
  return ![...used].some((n) => answerNames.has(n) || declaredBetween.has(n));
}

function containerStatements(container: Node, scope: HandlerScope): Node[] {
  if (container === scope.container) return scope.statements;
  return container.type === 'SwitchCase' ? (container.consequent as Node[]) : (container.body as Node[]);
}

function hasControlTransfer(statement: Node): boolean {
  let found = false;
  walk(statement, (n, ancestors) => {
    if (found || ancestors.some((a) => a !== statement && isFunction(a))) return;
    if (n.type === 'ReturnStatement' || n.type === 'ThrowStatement' || n.type === 'BreakStatement' || n.type === 'ContinueStatement') found = true;
  });
  return found;
}

/**
 * Carried answers must be in scope where later steps seal them, and a step inside an `if` arm is only
 * re-entered through that arm: so once a step sits in an arm, every later answering step sits there too.
 */
function checkStepOrder(steps: Step[], scope: HandlerScope): Ask | undefined {
  let armed: Node | undefined;
  for (const step of steps) {
    if (step.terminal) continue;
    for (const ask of step.asks) {
      if (armed && ask.container !== armed) return ask;
      if (ask.container !== scope.container) armed = ask.container;
    }
  }
  return undefined;
}

/** Side effects before the last ask: moved after the last answer, or the handler is refused. */
function planSideEffects(steps: Step[], scope: HandlerScope): { moved: Node[] } | { blocked: Node } {
  const lastStep = steps[steps.length - 1];
  const lastAsk = lastStep.asks[0];
  const firstAskOf = (statement: Node): Node => {
    for (const step of steps) for (const a of step.asks) if (a.top.start >= statement.end) return a.statement;
    return lastAsk.statement;
  };
  const locals = localNames(scope.fn);
  const askTops = new Set(steps.flatMap((s) => s.asks.map((a) => a.top)));
  const lastTopIndex = scope.statements.indexOf(lastAsk.top);
  const moved: Node[] = [];
  for (let i = 0; i < lastTopIndex; i++) {
    const s = scope.statements[i];
    if (askTops.has(s)) continue;
    const firstAskTop = steps[0].asks[0].top;
    if (s.start < firstAskTop.start && !hasSideEffect(s, locals)) continue;
    if (!hasSideEffect(s, locals)) continue;
    const askAfter = firstAskOf(s);
    if (hasControlTransfer(s) || lastStep.terminal || lastAsk.container !== scope.container) return { blocked: askAfter };
    // an early return or throw between the write and the last ask would skip the moved write
    if (scope.statements.slice(i + 1, lastTopIndex).some(hasControlTransfer)) return { blocked: askAfter };
    const written = new Set([...writtenNames(s), ...declaredNames(s)]);
    for (let j = i + 1; j <= lastTopIndex; j++) {
      const later = scope.statements[j];
      const used = identifierNames(later);
      if ([...written].some((n) => used.has(n))) return { blocked: askAfter };
    }
    moved.push(s);
  }
  // side effects inside an `if` arm before an ask there would repeat too
  for (const step of steps) {
    for (const ask of step.asks) {
      if (ask.container === scope.container) continue;
      const list = containerStatements(ask.container, scope);
      for (const s of list.slice(0, list.indexOf(ask.statement))) if (hasSideEffect(s, locals)) return { blocked: ask.statement };
    }
  }
  return { moved };
}

function localNames(fn: Node): Set<string> {
  const names = new Set<string>();
  walk(fn, (n) => {
    if (n.type === 'VariableDeclaration') for (const name of declaredNames(n)) names.add(name);
  });
  for (const p of fn.params as Node[]) walk(p, (n) => n.type === 'Identifier' && names.add(n.name as string));
  return names;
}

// ---------------------------------------------------------------- emission

interface Emit {
  ctx: PortContext;
  scope: HandlerScope;
  steps: Step[];
  ctxName: string;
  bind: string;
  state: string;
  names: NameScope;
}

function emitHandler(ctx: PortContext, scope: HandlerScope, steps: Step[], moved: Node[], names: NameScope): void {
  const { src } = ctx;
  const { eol } = src.style;
  const semi = src.style.semi;
  const ctxName = scope.ctxName ?? names.fresh('ctx');
  if (scope.addCtx) ctx.edits.push({ start: scope.addCtx.start, end: scope.addCtx.end, text: scope.addCtx.render(ctxName) });
  widenReturnType(ctx, scope);
  // a handler that only threw a URL-elicitation error may be synchronous: the rounds need `await`
  if (!scope.fn.async) ctx.edits.push({ start: scope.fn.start, end: scope.fn.start, text: 'async ' });

  const e: Emit = { ctx, scope, steps, ctxName, bind: names.fresh('bind'), state: names.fresh('state'), names };
  const firstTop = steps[0].asks[0].top;
  const indent = src.indentAt(firstTop.start);
  const insertAt = leadingStart(firstTop, src.text);
  const head = [
    `const ${e.bind} = bindRequest(${ctxName}, ${scope.nameText}, ${scope.argsText})${semi}`,
    `const ${e.state} = await continuation.open${ctx.typed ? `<${stateType(e)}>` : ''}(${ctxName}, ${e.bind})${semi}`,
  ];
  ctx.edits.push({ start: insertAt, end: insertAt, text: head.join(eol + indent) + eol + indent, order: 0 });
  capabilityEdits(ctx, scope, ctxName, steps.flatMap((s) => s.asks.map((a) => a.top)), names);

  for (let k = 0; k < steps.length; k++) {
    const step = steps[k];
    const first = step.asks[0];
    const stmtIndent = src.indentAt(first.statement.start);
    const lines = step.terminal ? emitThrowStep(e, k) : emitStep(e, k);
    if (k === steps.length - 1 && moved.length > 0) {
      for (const m of moved) lines.push(takeSlice(ctx, leadingStart(m, src.text), m.end));
    }
    ctx.edits.push({ start: first.statement.start, end: first.statement.end, text: joinIndented(lines, stmtIndent, eol) });
    for (const other of step.asks.slice(1)) {
      const redeclare = redeclaration(other, src);
      if (redeclare) ctx.edits.push({ start: other.statement.start, end: other.statement.end, text: redeclare });
      else ctx.edits.push(removal(src.text, other.statement, src.style.eol));
    }
  }
  for (const m of moved) ctx.edits.push(removal(src.text, m, eol, true));
  const rounds = steps.length;
  ctx.notes.push(`ported ${scope.helper ? 'helper' : scope.kind} ${scope.label} (${rounds} ${rounds === 1 ? 'round' : 'rounds'})`);
}

/** `state` type: one member per step, each carrying the answers of the steps before it. */
function stateType(e: Emit): string {
  const { src } = e.ctx;
  const members = e.steps.map((step, k) => {
    const carried = carriedAsks(e.steps, k).map((a) => `${a.key}: ${carriedType(a, src.style)}`);
    // a batch keeps the answers it already has while it asks again for the rest
    if (isBatch(step)) carried.push(...step.asks.map((a) => `${a.key}?: ${carriedType(a, src.style)}`));
    return `{ step: ${quoteString(step.name, src.style)}${carried.map((c) => `; ${c}`).join('')} }`;
  });
  return members.join(' | ');
}

function isBatch(step: Step): boolean {
  return !step.terminal && step.asks.length > 1;
}

function carriedAsks(steps: Step[], k: number): Ask[] {
  return steps.slice(0, k).flatMap((s) => (s.terminal ? [] : s.asks));
}

function carriedType(ask: Ask, style: SourceStyle): string {
  if (ask.request.url) return `{ action: ${['accept', 'decline', 'cancel'].map((a) => quoteString(a, style)).join(' | ')} }`;
  switch (ask.request.kind) {
    case 'elicitation':
      return 'ElicitAnswer';
    case 'sampling':
      return narrowSampling(ask) ? 'CreateMessageResult' : 'CreateMessageResult | CreateMessageResultWithTools';
    case 'roots':
      return '{ roots: Root[] }';
  }
}

/** `server.createMessage(params)` without `tools` was typed as a plain CreateMessageResult. */
function narrowSampling(ask: Ask): boolean {
  const params = ask.request.params;
  return ask.call.form === 'createMessage' && !!params && params.type === 'ObjectExpression' && !objectProperty(params, 'tools');
}

function emitStep(e: Emit, k: number): string[] {
  const { src } = e.ctx;
  const semi = src.style.semi;
  const q = (s: string): string => quoteString(s, src.style);
  const step = e.steps[k];
  const later = e.steps.slice(k + 1).map((s) => `${e.state}?.step === ${q(s.name)}`);
  const laterCarrying = later.length > 0 ? later.join(' || ') : undefined;
  const thisRound = `${e.state}?.step === ${q(step.name)}`;
  const responses = `${e.ctxName}.mcpReq.inputResponses`;

  const requests: string[] = [];
  const reads: string[] = [];
  const asked: string[] = [];
  for (const ask of step.asks) {
    const decl = ask.statement.type === 'VariableDeclaration' && !ask.declarator?.id.typeAnnotation && ask.declarator?.id.type === 'Identifier' ? (ask.statement.kind as string) : 'const';
    const fromState = (fresh: string): string => (laterCarrying ? `${laterCarrying} ? ${e.state}.${ask.key} : ${fresh}` : fresh);
    // a batch asked again keeps the answers it already had (a decline is never asked twice)
    const kept = isBatch(step) ? `${e.state}.${ask.key} ?? ` : '';
    const built = buildRequest(e, ask, requests);
    if (ask.request.kind === 'elicitation' && !ask.request.url) {
      const read = `${thisRound} ? ${kept}elicitationAnswer(${responses}, ${q(ask.key)}, ${built.schema}) : undefined`;
      reads.push(`${decl} ${ask.varName} = ${fromState(read)}${semi}`);
    } else {
      const view = e.names.fresh(`${ask.key}View`);
      reads.push(`const ${view} = ${thisRound} ? inputResponse(${responses}, ${q(ask.key)}) : undefined${semi}`);
      let value: string;
      if (ask.request.url) value = `${view}?.kind === ${q('elicit')} ? { action: ${view}.action } : undefined`;
      else if (ask.request.kind === 'sampling') value = `${view}?.kind === ${q('sampling')} ? ${view}.result${narrowSampling(ask) && e.ctx.typed ? ' as CreateMessageResult' : ''} : undefined`;
      else value = `${view}?.kind === ${q('roots')} ? { roots: ${view}.roots } : undefined`;
      if (kept) value = `${thisRound} ? ${kept}(${value}) : undefined`;
      reads.push(`${decl} ${ask.varName} = ${fromState(value)}${semi}`);
    }
    asked.push(isBatch(step) ? `...(${ask.varName} === undefined ? { ${ask.key}: ${built.builder} } : {})` : `${ask.key}: ${built.builder}`);
  }
  const seal = sealText(e, k, step.asks);
  const missing = step.asks.map((a) => `${a.varName} === undefined`).join(' || ');
  const formAsk = step.asks.some((a) => a.request.kind === 'elicitation' && !a.request.url);
  const unit = src.style.indentUnit;
  const out = [...requests, ...reads, `if (${missing}) {`];
  out.push(`${unit}// first round, or a ${formAsk ? 'missing, foreign or schema-invalid' : 'missing or foreign'} answer: ask (again)`);
  out.push(`${unit}return inputRequired({`);
  if (asked.length === 1) out.push(`${unit}${unit}inputRequests: { ${asked[0]} },`);
  else out.push(`${unit}${unit}inputRequests: {`, ...asked.map((a) => `${unit}${unit}${unit}${a},`), `${unit}${unit}},`);
  out.push(`${unit}${unit}requestState: await ${seal},`, `${unit}})${semi}`, '}');
  const redeclare = redeclaration(step.asks[0], src);
  if (redeclare) out.push(redeclare);
  return out;
}

/** `throw new UrlElicitationRequiredError([...])` → ask by URL, and stop when the user refused. */
function emitThrowStep(e: Emit, k: number): string[] {
  const { src } = e.ctx;
  const semi = src.style.semi;
  const q = (s: string): string => quoteString(s, src.style);
  const unit = src.style.indentUnit;
  const ask = e.steps[k].asks[0];
  const requests: string[] = [];
  const built = buildRequest(e, ask, requests);
  const view = e.names.fresh(`${ask.key}View`);
  return [
    ...requests,
    `const ${view} = ${e.state}?.step === ${q(ask.key)} ? inputResponse(${e.ctxName}.mcpReq.inputResponses, ${q(ask.key)}) : undefined${semi}`,
    `if (${view}?.kind === ${q('elicit')} && ${view}.action !== ${q('accept')}) {`,
    `${unit}throw new Error(\`The user did not complete the requested URL step (\${${view}.action}).\`)${semi}`,
    '}',
    `return inputRequired({`,
    `${unit}inputRequests: { ${ask.key}: ${built.builder} },`,
    `${unit}requestState: await ${sealText(e, k, [ask])},`,
    `})${semi}`,
  ];
}

function sealText(e: Emit, k: number, asks: Ask[]): string {
  const { src } = e.ctx;
  const parts = [`step: ${quoteString(e.steps[k].name, src.style)}`, e.bind === 'bind' ? 'bind' : `bind: ${e.bind}`];
  const own = isBatch(e.steps[k]) ? e.steps[k].asks : [];
  for (const a of [...carriedAsks(e.steps, k), ...own]) parts.push(a.key === a.varName ? a.key : `${a.key}: ${a.varName}`);
  for (const a of asks) {
    const id = a.request.url ? urlRequest(a.request, src).correlation : undefined;
    if (id) parts.push(`${a.key}ElicitationId: ${id}`);
  }
  return `continuation.seal(${e.ctxName}, { ${parts.join(', ')} })`;
}

/** Hoists the request params (so the answer check can read the requested schema) and names the builder call. */
function buildRequest(e: Emit, ask: Ask, out: string[]): { builder: string; schema: string } {
  const { src } = e.ctx;
  const semi = src.style.semi;
  const params = ask.request.params;
  if (ask.request.kind === 'roots') return { builder: 'inputRequired.listRoots()', schema: '' };
  if (ask.request.url) {
    const { text } = urlRequest(ask.request, src);
    return { builder: `inputRequired.elicitUrl(${text})`, schema: '' };
  }
  let expr: string;
  if (params!.type === 'Identifier') {
    expr = params!.name as string;
  } else {
    expr = e.names.fresh(`${ask.key}Request`);
    const type = ask.request.kind === 'elicitation' ? 'ElicitRequestFormParams' : 'CreateMessageRequestParams';
    out.push(`const ${expr}${e.ctx.typed ? `: ${type}` : ''} = ${takeSlice(e.ctx, params!.start, params!.end)}${semi}`);
  }
  const builder = ask.request.kind === 'elicitation' ? `inputRequired.elicit(${expr})` : `inputRequired.createMessage(${expr})`;
  return { builder, schema: `${expr}.requestedSchema` };
}

/** `const { roots } = await …` keeps its pattern: `const { roots } = listedRoots;` after the check. */
function redeclaration(ask: Ask, src: SourceText): string | undefined {
  const id = ask.declarator?.id as Node | undefined;
  if (!id || (id.type === 'Identifier' && !id.typeAnnotation)) return undefined;
  return `${ask.statement.kind as string} ${src.slice(id.start, id.end)} = ${ask.varName}${src.style.semi}`;
}

/**
 * The input text of [start, end) with the edits earlier transforms made inside it applied (e.g. a
 * retired roots call inside an ask's params), those edits then consumed: the slice is re-emitted elsewhere.
 */
function takeSlice(ctx: PortContext, start: number, end: number): string {
  const inside = ctx.edits.filter((e) => e.start >= start && e.end <= end && !(e.start === e.end && (e.start === start || e.end === end)));
  if (inside.length === 0) return ctx.src.slice(start, end);
  let out = '';
  let at = start;
  for (const e of [...inside].sort((a, b) => a.start - b.start || (a.order ?? 0) - (b.order ?? 0))) {
    out += ctx.src.slice(at, e.start) + e.text;
    at = e.end;
  }
  for (const e of inside) ctx.edits.splice(ctx.edits.indexOf(e), 1);
  return out + ctx.src.slice(at, end);
}

/** `Promise<CallToolResult>` → `Promise<CallToolResult | InputRequiredResult>`. */
export function widenReturnType(ctx: PortContext, scope: HandlerScope): void {
  if (!ctx.typed) return;
  const annotation = scope.fn.returnType as Node | undefined;
  if (!annotation) return;
  const type = annotation.typeAnnotation as Node;
  if (type?.type !== 'TSTypeReference' || memberChain(type.typeName as Node).at(-1) !== 'Promise') return;
  const inner = (type.typeParameters?.params as Node[] | undefined)?.[0];
  if (!inner || ctx.src.slice(inner.start, inner.end).includes('InputRequiredResult')) return;
  ctx.edits.push({ start: inner.end, end: inner.end, text: ' | InputRequiredResult' });
}

/** Start of a statement including comment lines directly above it. */
function leadingStart(statement: Node, text: string): number {
  const comments = (statement.leadingComments as Node[] | undefined) ?? [];
  let start = statement.start;
  for (let i = comments.length - 1; i >= 0; i--) {
    const c = comments[i];
    const gap = text.slice(c.end, start);
    if (!/^[ \t]*\r?\n?[ \t]*$/.test(gap)) break;
    const before = text.slice(text.lastIndexOf('\n', c.start - 1) + 1, c.start);
    if (!/^[ \t]*$/.test(before)) break;
    start = c.start;
  }
  return start;
}

/** Removes a statement; whole lines when it stands alone on them. */
function removal(text: string, statement: Node, _eol: string, withComments = false): { start: number; end: number; text: string } {
  const start = withComments ? leadingStart(statement, text) : statement.start;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const nl = text.indexOf('\n', statement.end);
  const lineEnd = nl < 0 ? text.length : nl + 1;
  const before = text.slice(lineStart, start);
  const after = text.slice(statement.end, nl < 0 ? text.length : nl).replace(/\r$/, '');
  if (/^[ \t]*$/.test(before) && /^[ \t]*$/.test(after)) return { start: lineStart, end: lineEnd, text: '' };
  return { start, end: statement.end, text: '' };
}

/**
 * Generated lines get the statement's indentation; a verbatim slice of the input (a request literal,
 * a moved statement) keeps its own continuation lines byte for byte, template literals included.
 */
function joinIndented(entries: readonly string[], indent: string, eol: string): string {
  return entries.map((entry, i) => (i === 0 || entry.length === 0 ? entry : indent + entry)).join(eol);
}

const MRTR_NAMES: ReadonlySet<string> = new Set([MRTR_API.inputRequired, MRTR_API.inputResponse, MRTR_API.acceptedContent]);

/** Does the handler already build MRTR results or read MRTR answers? */
function usesMrtr(fn: Node): boolean {
  let found = false;
  walk(fn, (n) => {
    if (!found && n.type === 'Identifier' && MRTR_NAMES.has(n.name as string)) found = true;
  });
  return found;
}

/** Is the ask (or the registration around it) behind a protocol-era check (`era === 'legacy'`, `envelope === undefined`)? */
function eraGuarded(ancestors: readonly Node[]): boolean {
  return ancestors.some((a) => {
    if (a.type !== 'IfStatement' && a.type !== 'ConditionalExpression') return false;
    let mentions = false;
    walk(a.test as Node, (n) => {
      if (n.type === 'Identifier' && (n.name === 'era' || n.name === 'envelope')) mentions = true;
    });
    return mentions;
  });
}

/** Is the line above the statement a `@mrtr-port-todo` / `@mrtr-port-ignore` marker? */
function markedAbove(ctx: PortContext, statement: Node): boolean {
  const { text } = ctx.src;
  const lineStart = text.lastIndexOf('\n', statement.start - 1) + 1;
  if (lineStart === 0) return false;
  const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
  const previous = text.slice(prevStart, lineStart);
  return previous.includes(MARKERS.todo) || previous.includes(MARKERS.ignore);
}

// ---------------------------------------------------------------- outside handlers

function markOutsideHandler(ctx: PortContext, call: LegacyCall, lookup: ReturnType<typeof lookupHandler>): void {
  const statement = statementOf(call.node, call.ancestors);
  const instruction = ctx.instructionOf(call);
  if (instruction && instruction.portability !== 'auto') {
    if (instruction.portability !== 'guarded') for (const reason of instruction.reasons) addMarker(ctx, statement, reason);
    return;
  }
  switch (lookup.type) {
    case 'nested-callback':
      addMarker(ctx, statement, 'nested-callback');
      return;
    case 'unknown-shape':
      addMarker(ctx, statement, 'unknown-handler-shape');
      return;
    case 'none':
      addMarker(ctx, statement, 'no-handler');
      return;
    case 'helper': {
      const entry = entryPointReason(call.ancestors, lookup.fnIndex);
      if (entry) {
        addMarker(ctx, statement, entry);
        return;
      }
      const callers = helperCallers(ctx, lookup.fn, call.ancestors[lookup.fnIndex - 1]);
      if (callers.length === 0) addMarker(ctx, statement, 'in-helper');
      for (const c of callers) addMarker(ctx, c, 'in-helper');
      return;
    }
  }
}

/** Callbacks registered where MRTR cannot serve an ask (notifications, lifecycle hooks, timers, other requests). */
export function entryPointReason(ancestors: readonly Node[], fnIndex: number): ReasonId | undefined {
  const fn = ancestors[fnIndex];
  const parent = ancestors[fnIndex - 1];
  if (parent?.type === 'CallExpression' && (parent.arguments as Node[]).includes(fn)) {
    const name = memberChain(parent.callee as Node).at(-1) ?? '';
    if (name === INELIGIBLE_ENTRY_POINTS.notificationRegistration) return 'notification-handler';
    if (INELIGIBLE_ENTRY_POINTS.timers.includes(name)) return 'timer';
    if (name === SET_REQUEST_HANDLER) return 'ineligible-request';
  }
  if (parent?.type === 'AssignmentExpression') {
    const name = memberChain(parent.left as Node).at(-1) ?? '';
    if (INELIGIBLE_ENTRY_POINTS.lifecycleHooks.includes(name)) return 'lifecycle-hook';
  }
  return undefined;
}

/** Statements inside handlers that call the helper by name. */
export function helperCallers(ctx: PortContext, fn: Node, parent: Node | undefined): Node[] {
  const name =
    fn.type === 'FunctionDeclaration' && fn.id
      ? (fn.id.name as string)
      : parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier'
        ? (parent.id.name as string)
        : undefined;
  if (!name) return [];
  const found: Node[] = [];
  walk(ctx.program, (node, ancestors) => {
    if (node.type !== 'CallExpression' || memberChain(node.callee as Node).join('.') !== name) return;
    if (lookupHandler(ancestors, ctx).type !== 'handler') return;
    found.push(statementOf(node, ancestors));
  });
  return found;
}

export const parser = 'ts';

/** jscodeshift module: the round/step engine with capability branches and imports, nothing else. */
export default function transformer(file: FileInfo, _api: unknown, options: Record<string, unknown> = {}): string | undefined {
  return runAsJscodeshift(file, options, { twoPass: true, capabilityBranches: false, retireRoots: false, urlElicitation: false, imports: true });
}
