/**
 * TEMPORARY stand-in for `src/runtime/mrtr-continuation.ts`, used by the e2e harness only while the real
 * runtime module does not exist yet. Same exported API; HMAC instead of AEAD. Deleted once the real file lands.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export interface ContinuationContext {
  mcpReq: { method: string; requestState?: () => unknown };
}
export interface Bind {
  readonly method: string;
  readonly name: string;
  readonly args: unknown;
}
export interface SealedPayload {
  step: string;
  bind: Bind;
  [carried: string]: unknown;
}
export type ElicitAnswer =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | { action: 'decline'; content?: undefined }
  | { action: 'cancel'; content?: undefined };

export function bindRequest(ctx: ContinuationContext, name: string, args: unknown): Bind {
  return { method: ctx.mcpReq.method, name, args };
}

function key(): string {
  const first = (process.env.MRTR_STATE_KEYS ?? '').split(',')[0];
  if (first.length < 32) throw new Error('MRTR_STATE_KEYS missing');
  return first;
}
function digest(bind: Bind): string {
  return createHash('sha256').update(JSON.stringify([bind.method, bind.name, bind.args])).digest('base64url');
}
function mac(body: string): string {
  return createHmac('sha256', key()).update(body).digest('base64url');
}

export const continuation = {
  async seal(_ctx: ContinuationContext, payload: SealedPayload): Promise<string> {
    const { bind, ...rest } = payload;
    const ttl = Number(process.env.MRTR_STATE_TTL_SECONDS ?? 300);
    const body = Buffer.from(JSON.stringify({ p: rest, d: digest(bind), exp: Date.now() / 1000 + ttl })).toString('base64url');
    return `s1.${body}.${mac(body)}`;
  },
  async open<T extends { step: string }>(ctx: ContinuationContext, bind: Bind): Promise<T | undefined> {
    const raw = ctx.mcpReq.requestState?.();
    if (typeof raw !== 'string') return undefined;
    const [v, body, sig] = raw.split('.');
    if (v !== 's1' || !body || !sig) return undefined;
    const want = Buffer.from(mac(body));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return undefined;
    try {
      const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p: T; d: string; exp: number };
      if (parsed.d !== digest(bind) || parsed.exp < Date.now() / 1000) return undefined;
      return parsed.p;
    } catch {
      return undefined;
    }
  },
};

interface FlatProperty {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
}

export function elicitationAnswer(responses: unknown, key: string, requestedSchema: unknown): ElicitAnswer | undefined {
  const entry = (responses as Record<string, unknown> | undefined)?.[key] as { action?: unknown; content?: unknown } | undefined;
  if (entry === undefined || entry === null || typeof entry !== 'object') return undefined;
  if (entry.action === 'decline' || entry.action === 'cancel') return { action: entry.action };
  if (entry.action !== 'accept' || typeof entry.content !== 'object' || entry.content === null) return undefined;
  const schema = requestedSchema as { properties?: Record<string, FlatProperty>; required?: string[] };
  const content = entry.content as Record<string, unknown>;
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const name of schema.required ?? []) if (!(name in content)) return undefined;
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (!(name in content)) continue;
    const value = content[name];
    if (prop.enum && !prop.enum.includes(value)) return undefined;
    if (prop.type === 'boolean' && typeof value !== 'boolean') return undefined;
    if (prop.type === 'string' && (typeof value !== 'string' || value.length < (prop.minLength ?? 0))) return undefined;
    if (prop.type === 'number' || prop.type === 'integer') {
      if (typeof value !== 'number' || (prop.type === 'integer' && !Number.isInteger(value))) return undefined;
      if (value < (prop.minimum ?? -Infinity) || value > (prop.maximum ?? Infinity)) return undefined;
    }
    out[name] = value as string | number | boolean;
  }
  return { action: 'accept', content: out };
}

export function rootsFromConfig(env: Record<string, string | undefined> = process.env): { roots: { uri: string }[] } {
  const list = (env.MCP_ALLOWED_ROOTS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return { roots: list.map((r) => ({ uri: r.startsWith('/') ? `file://${r}` : r })) };
}
