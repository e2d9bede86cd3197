/**
 * One verdict per site from all the routes that reach it.
 * - only client-side routes: not a server site at all (dropped);
 * - every remaining route behind an era guard: `guarded`;
 * - some route reaches an eligible handler: `auto` when every such route is in auto shape and no
 *   route ends outside an eligible request, else `manual` with every reason found;
 * - otherwise: `unportable`, with the reasons of the entry points reached.
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
}

const REASON_ORDER = Object.keys(REASONS) as ReasonId[];

export function classifyRoutes(routes: readonly Route[]): Verdict | undefined {
  const serverRoutes = routes.filter((r) => r.end.type !== 'client');
  if (routes.length > 0 && serverRoutes.length === 0) return undefined;
  if (serverRoutes.length === 0) return { portability: 'unportable', reasons: ['no-handler'], shown: undefined, handlerRoutes: [] };

  const handlerRoutes = sortRoutes(serverRoutes.filter((r) => r.end.type === 'handler'));
  const open = serverRoutes.filter((r) => !r.guarded);
  if (open.length === 0) {
    return { portability: 'guarded', reasons: ['era-guarded'], shown: handlerRoutes[0] ?? serverRoutes[0], handlerRoutes };
  }
  const eligible = sortRoutes(open.filter((r) => r.end.type === 'handler'));
  const elsewhere = open.filter((r) => r.end.type === 'unportable');
  if (eligible.length > 0) {
    const reasons = new Set<ReasonId>();
    for (const r of eligible) {
      for (const id of r.reasons) reasons.add(id);
      if (r.end.type === 'handler' && r.end.nameDynamic) reasons.add('unknown-handler-shape');
    }
    for (const r of elsewhere) if (r.end.type === 'unportable') reasons.add(r.end.reason);
    const manual = [...reasons].some((id) => REASONS[id].portability !== 'auto');
    return { portability: manual ? 'manual' : 'auto', reasons: ordered(reasons), shown: eligible[0], handlerRoutes };
  }
  const reasons = new Set<ReasonId>();
  for (const r of elsewhere) if (r.end.type === 'unportable') reasons.add(r.end.reason);
  return { portability: 'unportable', reasons: ordered(reasons), shown: elsewhere[0], handlerRoutes };
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
