/**
 * Which handler a legacy request runs in, and the facts the two-pass shape needs about it: the
 * name and arguments to bind, the context parameter (added when missing), and the statement list
 * the rounds are written into (the handler body, or one `case`/`if` arm of a low-level
 * `setRequestHandler('tools/call', …)` dispatch, each of which is a handler of its own).
 */
import {
  ELIGIBLE_REQUEST_METHODS,
  ELIGIBLE_REQUEST_SCHEMAS,
  REGISTRATION_METHODS,
  SET_REQUEST_HANDLER,
  type HandlerKind,
} from '../../src/vocabulary.js';
import { isFunction, memberChain, objectProperty, stringValue, unwrap, walk, type Node } from './ast.js';
import type { SourceText } from './source-text.js';

export interface HandlerScope {
  /** Stable identity: asks with the same key are ported together. */
  key: string;
  fn: Node;
  kind: HandlerKind;
  lowLevel: boolean;
  /** Source text of the name passed to bindRequest (a literal or an expression). */
  nameText: string;
  /** A readable name for notes. */
  label: string;
  /** A helper the handlers await, ported as a scope of its own (see transforms/helper-asks.ts). */
  helper?: boolean;
  /** Source text of the arguments passed to bindRequest. */
  argsText: string;
  /** The context parameter's name, when the handler has one. */
  ctxName?: string;
  /** How to add a context parameter when it has none: replace [start, end) with `render(name)`. */
  addCtx?: { start: number; end: number; render: (name: string) => string };
  /** The statements the rounds are written into. */
  statements: Node[];
  /** Node whose direct statements those are (BlockStatement or SwitchCase). */
  container: Node;
}

export type HandlerLookup =
  | { type: 'handler'; scope: HandlerScope; fnIndex: number }
  | { type: 'nested-callback' }
  | { type: 'helper'; fn: Node; fnIndex: number }
  | { type: 'unknown-shape' }
  | { type: 'none' };

/** What handler lookup needs from the file: its text, and the handlers registered by name. */
export interface HandlerIndex {
  src: SourceText;
  /** Module-level functions registered by name (`registerTool('x', cfg, handleX)`), to their registration. */
  references: ReadonlyMap<Node, Node>;
}

/** Resolves the handler around a node from its ancestors (outermost first). */
export function lookupHandler(ancestors: readonly Node[], index: HandlerIndex): HandlerLookup {
  const { src } = index;
  let fnIndex = -1;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    if (isFunction(ancestors[i])) {
      fnIndex = i;
      break;
    }
  }
  if (fnIndex < 0) return { type: 'none' };
  const fn = ancestors[fnIndex];
  const byName = index.references.get(fn);
  const registration = byName ? registrationOf(fn, byName, true) : registrationOf(fn, ancestors[fnIndex - 1]);
  if (registration) {
    const scope = describeHandler(fn, registration, ancestors.slice(fnIndex + 1), src);
    return scope ? { type: 'handler', scope, fnIndex } : { type: 'unknown-shape' };
  }
  for (let i = fnIndex - 1; i >= 0; i--) {
    if (isFunction(ancestors[i]) && (index.references.has(ancestors[i]) || registrationOf(ancestors[i], ancestors[i - 1]))) return { type: 'nested-callback' };
  }
  return { type: 'helper', fn, fnIndex };
}

interface Registration {
  call: Node;
  kind: HandlerKind;
  lowLevel: boolean;
}

/** Is `fn` the callback (last argument) of a handler registration (or, `byName`, registered through its name)? */
export function registrationOf(fn: Node, parent: Node | undefined, byName = false): Registration | undefined {
  if (!parent || parent.type !== 'CallExpression') return undefined;
  const args = parent.arguments as Node[];
  if (!byName && args[args.length - 1] !== fn) return undefined;
  const method = memberChain(parent.callee as Node).at(-1) ?? '';
  if (memberChain(parent.callee as Node).length < 2) return undefined;
  const kind = REGISTRATION_METHODS[method];
  if (kind) return { call: parent, kind, lowLevel: false };
  if (method === SET_REQUEST_HANDLER && args.length >= 2) {
    const first = unwrap(args[0]);
    const spec = stringValue(first) ?? (first.type === 'Identifier' ? ELIGIBLE_REQUEST_SCHEMAS[first.name as string] : undefined);
    const lowKind = spec ? ELIGIBLE_REQUEST_METHODS[spec] : undefined;
    if (lowKind) return { call: parent, kind: lowKind, lowLevel: true };
  }
  return undefined;
}

function describeHandler(fn: Node, reg: Registration, inner: readonly Node[], src: SourceText): HandlerScope | undefined {
  const body = fn.body as Node;
  if (body.type !== 'BlockStatement') return undefined;
  const params = fn.params as Node[];
  const args = reg.call.arguments as Node[];
  return reg.lowLevel ? describeLowLevel(fn, reg, inner, src) : describeRegistered(fn, reg, params, args, src);
}

function describeRegistered(fn: Node, reg: Registration, params: Node[], args: Node[], src: SourceText): HandlerScope | undefined {
  const nameNode = args[0];
  if (!nameNode) return undefined;
  const nameText = src.slice(nameNode.start, nameNode.end);
  const label = stringValue(nameNode) ?? nameText;
  const legacyForm = args.length >= 3 && !['registerTool', 'registerPrompt', 'registerResource'].includes(memberChain(reg.call.callee as Node).at(-1) ?? '');
  if (legacyForm) return undefined; // v1 `tool(name, shape, cb)`: the official codemod rewrites it first

  let ctxIndex: number;
  let argsText: string | undefined;
  if (reg.kind === 'resource') {
    const template = args[1] ? unwrap(args[1]) : undefined;
    const isTemplate = !!template && template.type === 'NewExpression';
    ctxIndex = isTemplate ? 2 : 1;
    const uri = params[0];
    const uriName = uri && uri.type === 'Identifier' ? (uri.name as string) : undefined;
    if (!uriName) return undefined; // a resource handler must take the uri to bind it
    if (isTemplate) {
      // `variables` → `...variables`; `{ id }` → `id`
      const vars = params[1] ? patternAsExpression(params[1], src) : undefined;
      if (params.length > 1 && vars === undefined) return undefined;
      const spread = vars === undefined ? '' : vars.startsWith('{') ? vars.slice(1, -1).trim() : `...${vars}`;
      argsText = spread && spread.length > 0 ? `{ uri: ${uriName}.href, ${spread} }` : `{ uri: ${uriName}.href }`;
      if (params.length < 2) return undefined; // no variables parameter to put ctx after
    } else {
      argsText = `{ uri: ${uriName}.href }`;
    }
  } else {
    const config = args[1] ? unwrap(args[1]) : undefined;
    const schemaKey = reg.kind === 'tool' ? 'inputSchema' : 'argsSchema';
    const hasSchema = !!config && config.type === 'ObjectExpression' && !!objectProperty(config, schemaKey);
    if (config && config.type !== 'ObjectExpression') return undefined;
    ctxIndex = hasSchema ? 1 : 0;
    if (hasSchema && params.length === 0) {
      // `async () =>` on a tool that takes arguments: they are bound too, so the handler gets both
      const argsName = reg.kind === 'tool' ? 'toolArgs' : 'promptArgs';
      const ctx = contextParam(fn, params, 0, src);
      if (!ctx?.addCtx) return undefined;
      const { start, end } = ctx.addCtx;
      return {
        ...registered(fn, reg, nameText, label, argsName),
        addCtx: { start, end, render: (name) => `${argsName}, ${name}` },
      };
    }
    argsText = hasSchema ? patternAsExpression(params[0], src) : '{}';
    if (argsText === undefined) return undefined;
  }
  const ctx = contextParam(fn, params, ctxIndex, src);
  if (!ctx) return undefined;
  return { ...registered(fn, reg, nameText, label, argsText), ...ctx };
}

function registered(fn: Node, reg: Registration, nameText: string, label: string, argsText: string): HandlerScope {
  const body = fn.body as Node;
  return { key: `${fn.start}`, fn, kind: reg.kind, lowLevel: false, nameText, label, argsText, statements: body.body as Node[], container: body };
}

/**
 * `setRequestHandler('tools/call', (request, ctx) => …)`: each `case 'name':` of a
 * `switch (request.params.name)`, or each `if (request.params.name === 'name')` arm, is a handler.
 */
function describeLowLevel(fn: Node, reg: Registration, inner: readonly Node[], src: SourceText): HandlerScope | undefined {
  const params = fn.params as Node[];
  const request = params[0];
  if (!request || request.type !== 'Identifier') return undefined;
  const req = request.name as string;
  const ctx = contextParam(fn, params, 1, src);
  if (!ctx) return undefined;
  const argsText =
    reg.kind === 'resource' ? `{ uri: ${req}.params.uri }` : `${req}.params.arguments`;
  const body = fn.body as Node;
  const isNameTest = (n: Node): boolean => {
    const chain = memberChain(n);
    return chain.length === 3 && chain[0] === req && chain[1] === 'params' && chain[2] === (reg.kind === 'resource' ? 'uri' : 'name');
  };
  // the innermost dispatch arm around the ask, if any
  for (let i = inner.length - 1; i >= 0; i--) {
    const node = inner[i];
    if (node.type === 'SwitchCase' && node.test && inner[i - 1]?.type === 'SwitchStatement' && isNameTest(inner[i - 1].discriminant as Node)) {
      const label = stringValue(node.test as Node);
      if (label === undefined) return undefined;
      const consequent = node.consequent as Node[];
      const single = consequent.length === 1 && consequent[0].type === 'BlockStatement' ? consequent[0] : undefined;
      return {
        key: `${fn.start}:${node.start}`,
        fn,
        kind: reg.kind,
        lowLevel: true,
        nameText: src.slice(node.test.start, node.test.end),
        label,
        argsText,
        ...ctx,
        statements: single ? (single.body as Node[]) : consequent,
        container: single ?? node,
      };
    }
    if (node.type === 'IfStatement' && inner[i + 1] === node.consequent && (node.consequent as Node).type === 'BlockStatement') {
      const test = unwrap(node.test as Node);
      if (test.type === 'BinaryExpression' && (test.operator === '===' || test.operator === '==')) {
        const [lhs, rhs] = [unwrap(test.left as Node), unwrap(test.right as Node)];
        const lit = isNameTest(lhs) ? rhs : isNameTest(rhs) ? lhs : undefined;
        const label = lit ? stringValue(lit) : undefined;
        if (lit && label !== undefined) {
          return {
            key: `${fn.start}:${node.start}`,
            fn,
            kind: reg.kind,
            lowLevel: true,
            nameText: src.slice(lit.start, lit.end),
            label,
            argsText,
            ...ctx,
            statements: (node.consequent as Node).body as Node[],
            container: node.consequent as Node,
          };
        }
      }
    }
  }
  return {
    key: `${fn.start}`,
    fn,
    kind: reg.kind,
    lowLevel: true,
    nameText: reg.kind === 'resource' ? `${req}.params.uri` : `${req}.params.name`,
    label: `${req}.params.name`,
    argsText,
    ...ctx,
    statements: body.body as Node[],
    container: body,
  };
}

/** The context parameter at `index`, or where to add one. */
function contextParam(
  fn: Node,
  params: Node[],
  index: number,
  src: SourceText,
): Pick<HandlerScope, 'ctxName' | 'addCtx'> | undefined {
  if (params.length > index) {
    const p = params[index];
    return p.type === 'Identifier' ? { ctxName: p.name as string } : undefined;
  }
  if (params.length !== index) return undefined;
  if (params.length === 0) {
    // `async () =>` / `async function () {` : the ctx goes between the parentheses
    const open = src.text.indexOf('(', fn.typeParameters ? fn.typeParameters.end : fn.start + (fn.async ? 5 : 0));
    if (open < 0 || open > (fn.body as Node).start) return undefined;
    return { addCtx: { start: open + 1, end: open + 1, render: (name) => name } };
  }
  const last = params[params.length - 1];
  const lastEnd = last.typeAnnotation ? (last.typeAnnotation as Node).end : last.end;
  const parenthesised = src.text.slice(fn.start, params[0].start).includes('(');
  if (!parenthesised) {
    // `async uri => …`: wrap the single parameter
    return { addCtx: { start: params[0].start, end: lastEnd, render: (name) => `(${src.slice(params[0].start, lastEnd)}, ${name})` } };
  }
  return { addCtx: { start: lastEnd, end: lastEnd, render: (name) => `, ${name}` } };
}

/** `{ path }` → `{ path }`, `{ a = 1, b: c }` → `{ a, b: c }`, `args` → `args`. */
function patternAsExpression(param: Node, src: SourceText): string | undefined {
  if (param.type === 'Identifier') return param.name as string;
  if (param.type === 'AssignmentPattern') return patternAsExpression(param.left as Node, src);
  if (param.type !== 'ObjectPattern') return undefined;
  const parts: string[] = [];
  for (const prop of param.properties as Node[]) {
    if (prop.type === 'RestElement') {
      if ((prop.argument as Node).type !== 'Identifier') return undefined;
      parts.push(`...${prop.argument.name}`);
      continue;
    }
    if (prop.computed) return undefined;
    const key = prop.key as Node;
    const keyText = key.type === 'Identifier' ? (key.name as string) : src.slice(key.start, key.end);
    let value = prop.value as Node;
    if (value.type === 'AssignmentPattern') value = value.left as Node;
    if (value.type !== 'Identifier') return undefined;
    parts.push(value.name === keyText ? keyText : `${keyText}: ${value.name}`);
  }
  return parts.length === 0 ? '{}' : `{ ${parts.join(', ')} }`;
}

/**
 * Module-level functions registered by name, each to its one registration call
 * (`async function handleX(args, ctx) {…}` + `server.registerTool('x', cfg, handleX)`). A function
 * registered twice is left out: one bind cannot name two tools.
 */
export function handlerReferences(program: Node): Map<Node, Node> {
  const functions = new Map<string, Node>();
  for (const statement of program.body as Node[]) {
    const s = statement.type === 'ExportNamedDeclaration' && statement.declaration ? (statement.declaration as Node) : statement;
    if (s.type === 'FunctionDeclaration' && s.id) functions.set(s.id.name as string, s);
    if (s.type === 'VariableDeclaration') {
      for (const d of s.declarations as Node[]) {
        const init = d.init ? unwrap(d.init as Node) : undefined;
        if (d.id.type === 'Identifier' && init && isFunction(init)) functions.set(d.id.name as string, init);
      }
    }
  }
  const found = new Map<Node, Node>();
  const twice = new Set<Node>();
  walk(program, (node) => {
    if (node.type !== 'CallExpression') return;
    const args = node.arguments as Node[];
    const last = args[args.length - 1];
    if (!last || last.type !== 'Identifier') return;
    const fn = functions.get(last.name as string);
    if (!fn || !registrationOf(fn, node, true)) return;
    if (found.has(fn)) twice.add(fn);
    found.set(fn, node);
  });
  for (const fn of twice) found.delete(fn);
  return found;
}
