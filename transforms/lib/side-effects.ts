/**
 * Is a statement before an ask a side effect? Under MRTR every round re-runs the handler from the
 * top, so writes before the last ask would repeat. The rule (documented in docs/transforms.md):
 * - an awaited call is a side effect unless its method name reads (`get*`, `find*`, `list*`,
 *   `read*`, `load*`, `fetch*`, `query*`, `search*`, `lookup*`, `has*`, `is*`, `count*`, `stat`,
 *   `exists`, `resolve*`, `check*`, `validate*`, `describe*`, `current*`, `retrieve*`, `view*`,
 *   `show*`, `inspect*`, `scan*`, and the pure `parse*`, `render*`, `format*`, `compute*`, `calc*`,
 *   `estimate*`, `preview*`) or it is a plain `fetch(url)` / a
 *   `fetch` whose options say `method: 'GET'`;
 * - a call that is not awaited is a side effect only when its method name writes (`push`, `set`,
 *   `delete`, `add`, `write*`, `send*`, `emit`, `save*`, `update*`, `remove*`, …);
 * - assigning to anything but a local declared in the same handler, `++`/`--` and `delete` are side
 *   effects; `console.*` and logger calls are not (repeating a log line is harmless).
 */
import { isFunction, memberChain, objectProperty, stringValue, unwrap, walk, type Node } from './ast.js';

const READ_METHOD =
  /^(get|find|list|read|load|fetch|query|search|lookup|has|is|count|stat|exists|resolve|check|validate|describe|head|peek|select|current|retrieve|view|show|inspect|scan|parse|render|format|compute|calc|estimate|preview)/i;
const WRITE_METHOD =
  /^(push|pop|shift|unshift|splice|set|delete|add|clear|write|append|send|emit|insert|update|remove|save|put|post|patch|charge|pay|refund|create|rm|unlink|mkdir|rename|commit|publish|enqueue|dispatch|notify|transfer|increment|decrement)/i;
const LOG_RECEIVERS = new Set(['console', 'logger', 'log']);

export function isReadCall(call: Node): boolean {
  const chain = memberChain(call.callee as Node);
  const name = chain.at(-1) ?? '?';
  if (name === 'fetch' && chain.length === 1) {
    const options = call.arguments[1] ? unwrap(call.arguments[1] as Node) : undefined;
    if (!options) return true;
    const method = stringValue(objectProperty(options, 'method')?.value as Node | undefined);
    return method !== undefined && method.toUpperCase() === 'GET';
  }
  return READ_METHOD.test(name);
}

function isLogCall(call: Node): boolean {
  const chain = memberChain(call.callee as Node);
  return chain.length >= 2 && LOG_RECEIVERS.has(chain[0]);
}

/** Does evaluating `statement` write something outside itself? `locals` are names declared in the handler. */
export function hasSideEffect(statement: Node, locals: ReadonlySet<string>): boolean {
  let effect = false;
  walk(statement, (node, ancestors) => {
    if (effect) return;
    // code inside a nested function only runs when called: the call decides
    if (ancestors.some((a) => a !== statement && isFunction(a))) return;
    switch (node.type) {
      case 'AwaitExpression': {
        const arg = unwrap(node.argument as Node);
        if ((arg.type === 'CallExpression' || arg.type === 'OptionalCallExpression') && !isReadCall(arg) && !isLogCall(arg)) effect = true;
        break;
      }
      case 'CallExpression':
      case 'OptionalCallExpression': {
        const name = memberChain(node.callee as Node).at(-1) ?? '?';
        if (!isLogCall(node) && WRITE_METHOD.test(name) && !READ_METHOD.test(name)) effect = true;
        break;
      }
      case 'AssignmentExpression': {
        const target = unwrap(node.left as Node);
        if (target.type !== 'Identifier' || !locals.has(target.name as string)) effect = true;
        break;
      }
      case 'UpdateExpression': {
        const target = unwrap(node.argument as Node);
        if (target.type !== 'Identifier' || !locals.has(target.name as string)) effect = true;
        break;
      }
      case 'UnaryExpression':
        if (node.operator === 'delete') effect = true;
        break;
    }
  });
  return effect;
}

/** Names a side-effecting statement defines or writes (what later code could depend on). */
export function writtenNames(statement: Node): Set<string> {
  const names = new Set<string>();
  walk(statement, (node) => {
    if (node.type === 'VariableDeclarator') {
      walk(node.id as Node, (n) => {
        if (n.type === 'Identifier') names.add(n.name as string);
      });
    } else if (node.type === 'AssignmentExpression' || node.type === 'UpdateExpression') {
      const target = unwrap((node.left ?? node.argument) as Node);
      const root = memberChain(target)[0];
      if (root && root !== '?' && root !== 'this') names.add(root);
    } else if (node.type === 'CallExpression' || node.type === 'OptionalCallExpression') {
      const chain = memberChain(node.callee as Node);
      // `deleted.push(x)` writes `deleted`; `files.rm(p)` writes whatever `files` holds
      if (chain.length >= 2 && chain[0] !== '?' && chain[0] !== 'this') names.add(chain[0]);
    }
  });
  return names;
}
