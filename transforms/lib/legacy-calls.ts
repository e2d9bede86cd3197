/**
 * Finds legacy server→client requests on the Babel AST through the shared vocabulary
 * (`matchLegacyCall`), and decodes what each one asks for.
 */
import { matchLegacyCall, URL_ELICITATION_ERROR, type CallShape, type SiteForm, type SiteKind } from '../../src/vocabulary.js';
import { memberChain, objectProperty, stringValue, unwrap, walk, type Node } from './ast.js';

export interface LegacyCall {
  /** The CallExpression, or the ThrowStatement of a URL-elicitation error. */
  node: Node;
  kind: SiteKind;
  form: SiteForm;
  ancestors: readonly Node[];
}

/** Every legacy request in a program, in source order. */
export function findLegacyCalls(program: Node): LegacyCall[] {
  const serverVariables = lowLevelServerNames(program);
  const found: LegacyCall[] = [];
  walk(program, (node, ancestors) => {
    if (node.type === 'CallExpression' || node.type === 'OptionalCallExpression') {
      const match = matchLegacyCall(callShape(node, serverVariables));
      if (match) found.push({ node, kind: match.kind, form: match.form, ancestors: [...ancestors] });
    } else if (node.type === 'ThrowStatement') {
      const arg = unwrap(node.argument as Node);
      if (arg.type === 'NewExpression' && memberChain(arg.callee as Node).at(-1) === URL_ELICITATION_ERROR) {
        found.push({ node, kind: 'elicitation', form: 'url-elicitation-error', ancestors: [...ancestors] });
      }
    }
  });
  return found;
}

export function callShape(call: Node, serverVariables: ReadonlySet<string> = new Set()): CallShape {
  const callee = memberChain(call.callee as Node);
  const args = call.arguments as Node[];
  const first = args[0] ? unwrap(args[0]) : undefined;
  const second = args[1] ? unwrap(args[1]) : undefined;
  const receiver = callee.slice(0, -1);
  return {
    callee,
    methodLiteral: first ? stringValue(objectProperty(first, 'method')?.value as Node | undefined) : undefined,
    resultSchemaName: second?.type === 'Identifier' ? (second.name as string) : undefined,
    receiverIsServer: receiver.length === 1 && serverVariables.has(receiver[0]),
  };
}

/** Variables initialised with `new Server(...)` (low-level protocol servers). */
function lowLevelServerNames(program: Node): Set<string> {
  const names = new Set<string>();
  walk(program, (node) => {
    if (node.type !== 'VariableDeclarator' || node.id.type !== 'Identifier' || !node.init) return;
    const init = unwrap(node.init as Node);
    if (init.type === 'NewExpression' && memberChain(init.callee as Node).at(-1) === 'Server') names.add(node.id.name as string);
  });
  return names;
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
  if (call.kind === 'roots') return { kind: 'roots', url: false };
  if (!params || !isStaticParams(params)) return undefined;
  const mode = stringValue(objectProperty(params, 'mode')?.value as Node | undefined);
  return { kind: call.kind, url: call.kind === 'elicitation' && mode === 'url', params };
}

function isStaticParams(params: Node): boolean {
  if (params.type === 'Identifier') return true;
  if (params.type !== 'ObjectExpression') return false;
  return (params.properties as Node[]).every((p) => p.type === 'ObjectProperty' && !p.computed);
}
