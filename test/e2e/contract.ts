/**
 * The contract between the e2e fixture servers and the harness.
 *
 * A fixture (`fixtures/e2e/<name>.input.ts`, and its port) is a module exporting
 * `buildServer(effects: SideEffectLog): McpServer`. Every side effect the server performs (a delete, a
 * refund, an audit entry) is reported through `effects.record(kind, detail)`, so the harness can count
 * effects across the legacy in-process run and the two replica processes of the ported run.
 *
 * Fixtures import this file as a type only (`import type { SideEffectLog } from './contract.js'`); the
 * harness copies it next to the ported modules, so it must stay self-contained.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

export interface SideEffectLog {
  record(kind: string, detail: Record<string, unknown>): void;
}

/** One recorded side effect. `replica` names the process that performed it (absent in-process). */
export interface SideEffect {
  readonly kind: string;
  readonly detail: Record<string, unknown>;
  readonly replica?: string;
}

/** What a fixture module exports. The server type stays structural so this file needs no SDK import. */
export interface FixtureModule<Server = unknown> {
  buildServer(effects: SideEffectLog): Server;
}

/** Collects effects in memory (the legacy, in-process run). */
export class MemoryEffectLog implements SideEffectLog {
  readonly effects: SideEffect[] = [];
  record(kind: string, detail: Record<string, unknown>): void {
    this.effects.push({ kind, detail });
  }
}

/**
 * Appends one JSON line per effect to a file shared by every replica process. Appends of a single short
 * line with O_APPEND do not interleave, so concurrent replicas can share the file.
 */
export class FileEffectLog implements SideEffectLog {
  constructor(
    private readonly path: string,
    private readonly replica: string,
  ) {}
  record(kind: string, detail: Record<string, unknown>): void {
    const effect: SideEffect = { kind, detail, replica: this.replica };
    appendFileSync(this.path, `${JSON.stringify(effect)}\n`);
  }
}

/** Every effect recorded so far in a shared effects file, in order. */
export function readEffects(path: string): SideEffect[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as SideEffect);
}
