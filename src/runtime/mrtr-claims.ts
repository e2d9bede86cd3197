/**
 * mrtr-claims: the store in which mrtr-flow claims each opened requestState, so the code after the last
 * answer runs at most once per state (`claimOnce`). Written into your project by mrtr-port (`port`, the
 * default `--claims memory`); you own it from then on.
 *
 * This one records claims in this process's memory: right for one replica. With several replicas, a replay
 * of the same final round on another replica would complete again. Port with `--claims redis` (a Redis every
 * replica shares), or replace `claimStore` below with any shared ClaimStore that passes mrtr-port's
 * `claimStoreConformance`. In production (NODE_ENV production or prod) it warns once at start-up.
 */
import { defaultClaimStore, type ClaimStore } from './mrtr-continuation.js';

/** The store mrtr-flow claims opened states in. */
export const claimStore: ClaimStore = defaultClaimStore();
