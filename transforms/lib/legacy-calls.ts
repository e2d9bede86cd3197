/**
 * Finds legacy server→client requests on the Babel AST through the shared vocabulary
 * (`matchLegacyCall`), and decodes what each one asks for.
 */
import {
  LEGACY_METHODS,
  matchLegacyCall,
  SET_REQUEST_HANDLER,
  SPEC_METHODS,
  isUrlElicitationErrorClass,
  urlErrorRenaming,
  type CallShape,
  type SiteForm,
  type SiteKind,
} from '../../src/vocabulary.js';
import { isFunction, memberChain, objectProperty, stringValue, unwrap, walk, type Node } from './ast.js';

export interface LegacyCall {
  /** The CallExpression, or the ThrowStatement of a URL-elicitation error. */
  node: Node;
  kind: SiteKind;
  form: SiteForm;
  ancestors: readonly Node[];
}

/** Every legacy request in a program, in source order. */
export function findLegacyCalls(program: Node): LegacyCall[] {
  const facts = fileFacts(program);
  const found: LegacyCall[] = [];
  walk(program, (node, ancestors) => {
    if (node.type === 'CallExpression' || node.type === 'OptionalCallExpression') {
      const match = matchLegacyCall(callShape(node, facts));
      if (match && !notServerSide(ancestors)) found.push({ node, kind: match.kind, form: match.form, ancestors: [...ancestors] });
    } else if (node.type === 'ThrowStatement') {
      const arg = unwrap(node.argument as Node);
      if (arg.type === 'NewExpression' && isUrlElicitationErrorClass(memberChain(arg.callee as Node), facts.urlErrors)) {
        found.push({ node, kind: 'elicitation', form: 'url-elicitation-error', ancestors: [...ancestors] });
      }
    }
  });
  return found;
}

/** What the call shapes need from the rest of the file. */
interface FileFacts {
  /** Variables and `this.<field>`s that hold a low-level protocol `Server`. */
  servers: Set<string>;
  /** Local object literals by name (`const request = { method: 'roots/list' }`). */
  objects: Map<string, Node>;
  /** Names bound to a legacy method taken off its receiver, to that method (`const { send } = ctx.mcpReq`, `const ask = ctx.mcpReq.elicitInput`). */
  detached: Map<string, string>;
  /** Local names bound to `UrlElicitationRequiredError` under another name (`import { UrlElicitationRequiredError as NeedsUrl }`). */
  urlErrors: Set<string>;
}

export function callShape(call: Node, facts: FileFacts = { servers: new Set(), objects: new Map(), detached: new Map(), urlErrors: new Set() }): CallShape {
  const written = memberChain(call.callee as Node);
  const detachedFrom = written.length === 1 ? facts.detached.get(written[0]) : undefined;
  // a detached method is matched by the method it was taken from
  const callee = detachedFrom ? [detachedFrom] : written;
  const args = call.arguments as Node[];
  let first = args[0] ? unwrap(args[0]) : undefined;
  if (first?.type === 'Identifier') first = facts.objects.get(first.name as string) ?? first;
  const second = args[1] ? unwrap(args[1]) : undefined;
  const receiver = callee.slice(0, -1);
  const receiverName = receiver[0] === 'this' ? `this.${receiver[1] ?? ''}` : receiver[0];
  return {
    callee,
    methodLiteral: first ? stringValue(objectProperty(first, 'method')?.value as Node | undefined) : undefined,
    resultSchemaName: second?.type === 'Identifier' ? (second.name as string) : undefined,
    receiverIsServer: (receiver.length === 1 || (receiver.length === 2 && receiver[0] === 'this')) && facts.servers.has(receiverName),
    bareFromLegacyReceiver: detachedFrom !== undefined,
  };
}

const LEGACY_NAMES = new Set(LEGACY_METHODS.map((m) => m.name));

function fileFacts(program: Node): FileFacts {
  const facts: FileFacts = { servers: new Set(), objects: new Map(), detached: new Map(), urlErrors: new Set() };
  const isServerType = (t: Node | undefined): boolean =>
    !!t && t.type === 'TSTypeAnnotation' && (t.typeAnnotation as Node).type === 'TSTypeReference' && memberChain((t.typeAnnotation as Node).typeName as Node).at(-1) === 'Server';
  const isNewServer = (n: Node | undefined | null): boolean => !!n && unwrap(n).type === 'NewExpression' && memberChain(unwrap(n).callee as Node).at(-1) === 'Server';
  walk(program, (node) => {
    if (node.type === 'VariableDeclarator') {
      const id = node.id as Node;
      const init = node.init ? unwrap(node.init as Node) : undefined;
      if (id.type === 'Identifier') {
        if (isNewServer(init) || isServerType(id.typeAnnotation as Node | undefined)) facts.servers.add(id.name as string);
        if (init?.type === 'ObjectExpression') facts.objects.set(id.name as string, init);
        // `const ask = ctx.mcpReq.elicitInput`
        if (init && (init.type === 'MemberExpression' || init.type === 'OptionalMemberExpression')) {
          const chain = memberChain(init);
          if (chain.length >= 2 && LEGACY_NAMES.has(chain.at(-1)!) && (chain.at(-2) === 'mcpReq' || chain.at(-1) === 'sendRequest')) facts.detached.set(id.name as string, chain.at(-1)!);
        }
      } else if (id.type === 'ObjectPattern' && init) {
        // `const { send } = ctx.mcpReq`, `const { sendRequest } = extra`
        const chain = memberChain(init);
        for (const p of id.properties as Node[]) {
          if (p.type !== 'ObjectProperty' || (p.key as Node).type !== 'Identifier' || (p.value as Node).type !== 'Identifier') continue;
          const key = p.key.name as string;
          // `const { UrlElicitationRequiredError: NeedsUrl } = require(…)`
          const renamed = isModuleLoad(init) ? urlErrorRenaming(key, p.value.name as string) : undefined;
          if (renamed) facts.urlErrors.add(renamed);
          if (LEGACY_NAMES.has(key) && (chain.at(-1) === 'mcpReq' || key === 'sendRequest')) facts.detached.set(p.value.name as string, key);
        }
      }
    } else if (node.type === 'ImportSpecifier') {
      // `import { UrlElicitationRequiredError as NeedsUrl } from '@modelcontextprotocol/…'`
      const imported = node.imported as Node;
      const renamed = urlErrorRenaming((imported.type === 'Identifier' ? imported.name : imported.value) as string, (node.local as Node).name as string);
      if (renamed) facts.urlErrors.add(renamed);
    } else if ((node.type === 'ClassProperty' || node.type === 'ClassPrivateProperty') && (node.key as Node).type === 'Identifier') {
      if (isNewServer(node.value as Node | null) || isServerType(node.typeAnnotation as Node | undefined)) facts.servers.add(`this.${node.key.name as string}`);
    } else if (node.type === 'TSParameterProperty') {
      const param = node.parameter as Node;
      if (param.type === 'Identifier' && isServerType(param.typeAnnotation as Node | undefined)) facts.servers.add(`this.${param.name as string}`);
    }
  });
  return facts;
}

/** `require('x')` or `await import('x')`: what a destructuring may take a module's exports from. */
function isModuleLoad(init: Node): boolean {
  const e = init.type === 'AwaitExpression' ? unwrap(init.argument as Node) : init;
  if (e.type !== 'CallExpression') return false;
  const callee = e.callee as Node;
  return callee.type === 'Import' || (callee.type === 'Identifier' && callee.name === 'require');
}

const CLIENT_REQUEST_SCHEMAS = new Set(['ElicitRequestSchema', 'CreateMessageRequestSchema', 'ListRootsRequestSchema']);

/**
 * Calls that look legacy but are not a server asking its client: code answering server requests on
 * the client side (`client.setRequestHandler('sampling/createMessage', …)`), and the implementation of
 * the legacy methods themselves (a class method named `elicitInput` sending the raw request).
 */
function notServerSide(ancestors: readonly Node[]): boolean {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i];
    if ((a.type === 'ClassMethod' || a.type === 'ObjectMethod') && (a.key as Node).type === 'Identifier' && LEGACY_NAMES.has(a.key.name as string)) return true;
    const parent = ancestors[i - 1];
    if (isFunction(a) && parent?.type === 'CallExpression' && memberChain(parent.callee as Node).at(-1) === SET_REQUEST_HANDLER) {
      const first = parent.arguments[0] ? unwrap(parent.arguments[0] as Node) : undefined;
      const method = first ? stringValue(first) : undefined;
      if (method !== undefined && SPEC_METHODS[method] !== undefined) return true;
      if (first?.type === 'Identifier' && CLIENT_REQUEST_SCHEMAS.has(first.name as string)) return true;
    }
  }
  return false;
}

/** What one legacy request asks for, decoded from its arguments. */
export interface DecodedRequest {
  kind: SiteKind;
  /** URL-mode elicitation. */
  url: boolean;
  /** The request params: an object literal or an identifier; undefined for roots. */
  params?: Node;
}

/** Decodes the request, or undefined when its params are built dynamically (spread, call, computed). */
export function decodeRequest(call: LegacyCall): DecodedRequest | undefined {
  if (call.form === 'url-elicitation-error') {
    const created = unwrap(call.node.argument as Node);
    const list = created.arguments[0] ? unwrap(created.arguments[0] as Node) : undefined;
    if (!list || list.type !== 'ArrayExpression' || list.elements.length !== 1) return undefined;
    const params = list.elements[0] ? unwrap(list.elements[0] as Node) : undefined;
    return params && isStaticParams(params) ? { kind: 'elicitation', url: true, params } : undefined;
  }
  // roots/list takes no params: whatever the request object looks like, the ask is the same
  if (call.kind === 'roots') return { kind: 'roots', url: false };
  const args = call.node.arguments as Node[];
  let params: Node | undefined;
  if (call.form === 'send' || call.form === 'sendRequest' || call.form === 'request') {
    const request = args[0] ? unwrap(args[0]) : undefined;
    if (!request || request.type !== 'ObjectExpression') return undefined;
    const value = objectProperty(request, 'params')?.value as Node | undefined;
    params = value ? unwrap(value) : undefined;
  } else if (call.form !== 'listRoots') {
    params = args[0] ? unwrap(args[0]) : undefined;
  }
  if (!params || !isStaticParams(params)) return undefined;
  const mode = stringValue(objectProperty(params, 'mode')?.value as Node | undefined);
  return { kind: call.kind, url: call.kind === 'elicitation' && mode === 'url', params };
}

function isStaticParams(params: Node): boolean {
  if (params.type === 'Identifier') return true;
  if (params.type !== 'ObjectExpression') return false;
  return (params.properties as Node[]).every((p) => p.type === 'ObjectProperty' && !p.computed);
}
