/**
 * One verdict per site from all the routes that reach it, and one per route.
 * - only client-side routes: not a server site at all (dropped);
 * - every remaining route behind an era guard: `guarded`;
 * - some route reaches an eligible handler: `auto` when every such route is in auto shape and no
 *   route ends outside an eligible request, else `manual` with every reason found; a route from dead
 *   code (nothing can call its entry) does not count here: it never runs;
 * - no eligible handler, but some route found no caller (`no-handler`, manual): `manual` — an
 *   eligible request may still be in flight through code not seen;
 * - otherwise: `unportable`, with the reasons of the entry points reached (each proves it).
 * The reported handler is the first eligible one (by file and line); `handlers` lists them all.
 */
import type { Portability } from './model.js';
import { REASONS, type ReasonId } from './reasons.js';
import type { Route } from './reach.js';

export interface Verdict {
  portability: Portability;
  reasons: ReasonId[];
  /** The route whose handler and via chain the report shows. */
  shown: Route | undefined;
  /** Every route that reaches an eligible handler (for the per-handler index). */
  handlerRoutes: Route[];
  /** Every server-side route (handlers and other entries), for the report's per-entry verdicts. */
  serverRoutes: Route[];
}

const REASON_ORDER = Object.keys(REASONS) as ReasonId[];

export function classifyRoutes(routes: readonly Route[]): Verdict | undefined {
  const serverRoutes = routes.filter((r) => r.end.type !== 'client');
  if (routes.length > 0 && serverRoutes.length === 0) return undefined;
  if (serverRoutes.length === 0) return { portability: 'manual', reasons: ['no-handler'], shown: undefined, handlerRoutes: [], serverRoutes: [] };

  const handlerRoutes = sortRoutes(serverRoutes.filter((r) => r.end.type === 'handler'));
  const open = serverRoutes.filter((r) => !r.guarded);
  if (open.length === 0) {
    return { portability: 'guarded', reasons: ['era-guarded'], shown: handlerRoutes[0] ?? serverRoutes[0], handlerRoutes, serverRoutes };
  }
  const eligible = sortRoutes(open.filter((r) => r.end.type === 'handler'));
  // a route from code nothing can call never runs: beside an eligible handler it is no caller the port
  // must keep the legacy ask for (the handler's ask becomes the runtime's; the dead caller never reaches it)
  const elsewhere = open.filter((r) => r.end.type === 'unportable' && !(eligible.length > 0 && r.end.reason === 'dead-code'));
  const reasons = new Set<ReasonId>();
  for (const r of eligible) for (const id of routeReasons(r)) reasons.add(id);
  for (const r of elsewhere) if (r.end.type === 'unportable') reasons.add(r.end.reason);
  const manual = [...reasons].some((id) => REASONS[id].portability === 'manual');
  if (eligible.length > 0) {
    return { portability: manual || elsewhere.length > 0 ? 'manual' : 'auto', reasons: ordered(reasons), shown: eligible[0], handlerRoutes, serverRoutes };
  }
  return { portability: manual ? 'manual' : 'unportable', reasons: ordered(reasons), shown: elsewhere[0], handlerRoutes, serverRoutes };
}

/** The verdict of one route alone. */
export function classifyRoute(route: Route): { portability: Portability; reasons: ReasonId[] } {
  if (route.guarded) return { portability: 'guarded', reasons: ['era-guarded'] };
  if (route.end.type === 'unportable') {
    const reasons = [route.end.reason];
    return { portability: REASONS[route.end.reason].portability === 'manual' ? 'manual' : 'unportable', reasons };
  }
  const reasons = ordered(new Set(routeReasons(route)));
  return { portability: reasons.some((id) => REASONS[id].portability === 'manual') ? 'manual' : 'auto', reasons };
}

/** The reasons a route to an eligible handler carries, its handler's own included. */
function routeReasons(r: Route): ReasonId[] {
  const out = [...r.reasons];
  if (r.end.type === 'handler') {
    if (r.end.nameDynamic) out.push('unknown-handler-shape');
    if (r.end.framework) out.push('framework-registration');
  }
  return out;
}

function ordered(ids: Set<ReasonId>): ReasonId[] {
  return REASON_ORDER.filter((id) => ids.has(id));
}

function sortRoutes(routes: Route[]): Route[] {
  const key = (r: Route): [string, number] => (r.end.type === 'handler' ? [r.end.file.rel, r.end.fn.getStart(r.end.file.sf)] : ['', 0]);
  return [...routes].sort((a, b) => {
    const [fa, pa] = key(a);
    const [fb, pb] = key(b);
    return fa < fb ? -1 : fa > fb ? 1 : pa - pb;
  });
}
