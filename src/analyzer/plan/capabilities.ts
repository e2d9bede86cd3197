/**
 * The client's capabilities, read where a ported handler's flow runs (docs/engine.md "Capabilities"):
 * `X.getClientCapabilities()` becomes `(clientCapabilities() ?? X.getClientCapabilities())`.
 *
 * On a 2026-07-28 connection the capabilities come with each request (the envelope), and the deprecated
 * connection getter may say nothing (a 2026-pinned stdio connection keeps no `initialize`): a check
 * written against it would take its fallback and never ask. So every read the flow can run is
 * rewritten, not only those of the path functions (the handler, the helpers that ask, the callbacks
 * on the way): also the reads in the functions they call that ask nothing themselves
 * (`if (!supportsForm(server)) return fallback()`), through further calls, in their own files, and
 * in the callbacks a path function writes (`tools.some((t) => s.server.getClientCapabilities()…)`).
 *
 * A helper also called from elsewhere (a timer, a test, another tool left unported) keeps its
 * behaviour there: `clientCapabilities()` is undefined outside a flow, so the read falls back to
 * the connection's answer, as before.
 *
 * Not rewritten: a read in a function that holds a roots request retired to configuration (the
 * retire-roots transform rewrites that function's roots gates and drops the capability locals that only
 * fed them: its reads are its), and a read already rewritten (`clientCapabilities() ?? X.get…()`).
 */
import ts from '../../typescript.cjs';
import { isFunctionLike, memberChain, outerParent } from '../ast.js';
import type { FileIndex } from '../file-index.js';
import { calledFunction, instanceMethodFunction, objectMemberFunction } from '../functions.js';
import type { Project } from '../project.js';
import { isCapabilityRead, type FlowFunction } from './flow-function.js';

/** The runtime's per-request read, under the name the plan imports it as (`clientCapabilities2` when taken). */
const RUNTIME_READ = /^clientCapabilities\d*$/;
/** How many functions off the path are followed for one component (a bound on a pathological call graph). */
const MAX_FUNCTIONS = 256;

export interface CapabilityRead {
  file: FileIndex;
  call: ts.CallExpression;
}

export interface CapabilityOptions {
  /** Roots come from configuration (`--roots config`): a function holding a roots request is retire-roots'. */
  rootsRetired: boolean;
}

/**
 * Every capability read the flows of `paths` can run: in the path functions (their callbacks too) and
 * in the functions they call, directly or through further calls, that are not path functions themselves
 * (those are walked as their own). Each read once, in walk order.
 */
export function capabilityReadsOnPath(paths: Iterable<FlowFunction>, project: Project, options: CapabilityOptions): CapabilityRead[] {
  const flows = [...paths];
  const onPath = new Set<ts.Node>(flows.map((f) => f.fn));
  const seen = new Set<ts.Node>();
  const queue: { fn: ts.FunctionLikeDeclaration; file: FileIndex }[] = [];
  const enqueue = (fn: ts.FunctionLikeDeclaration, file: FileIndex): void => {
    if (seen.has(fn) || seen.size >= flows.length + MAX_FUNCTIONS) return;
    seen.add(fn);
    queue.push({ fn, file });
  };
  for (const f of flows) enqueue(f.fn, f.file);
  const out: CapabilityRead[] = [];
  const taken = new Set<ts.Node>();
  for (let i = 0; i < queue.length; i++) {
    const { fn, file } = queue[i];
    const keepReads = !(options.rootsRetired && holdsRootsRequest(fn, file));
    const visit = (n: ts.Node): void => {
      // a path function written inside this one is walked as its own
      if (n !== fn && isFunctionLike(n) && onPath.has(n)) return;
      if (ts.isCallExpression(n)) {
        if (isCapabilityRead(n)) {
          if (keepReads && !rewritten(n) && !taken.has(n)) {
            taken.add(n);
            out.push({ file, call: n });
          }
        } else {
          const target = calledFunction(n.expression, file, project) ?? instanceMethodFunction(n.expression, file, project) ?? objectMemberFunction(n.expression, file, project);
          if (target && target.fn.body && !onPath.has(target.fn)) enqueue(target.fn, target.file);
        }
      }
      ts.forEachChild(n, visit);
    };
    for (const p of fn.parameters) visit(p);
    if (fn.body) visit(fn.body);
  }
  return out;
}

/** Already `(clientCapabilities() ?? X.getClientCapabilities())`: a file ported before (a handler ported on a later run). */
function rewritten(read: ts.CallExpression): boolean {
  const outer = outerParent(read);
  const p = outer.parent;
  if (!p || !ts.isBinaryExpression(p) || p.operatorToken.kind !== ts.SyntaxKind.QuestionQuestionToken || p.right !== outer) return false;
  const left = p.left;
  return ts.isCallExpression(left) && left.arguments.length === 0 && ts.isIdentifier(left.expression) && RUNTIME_READ.test(left.expression.text);
}

/** Does `fn` (or a callback written in it, walked with it) hold a roots request: a site the analyzer found, or the call's shape? */
function holdsRootsRequest(fn: ts.FunctionLikeDeclaration, file: FileIndex): boolean {
  if (file.sites.some((s) => s.kind === 'roots' && s.node.pos >= fn.pos && s.node.end <= fn.end)) return true;
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(n) && memberChain(n.expression).at(-1) === 'listRoots') found = true;
    else if (ts.isStringLiteralLike(n) && n.text === 'roots/list') found = true;
    else ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return found;
}
