/**
 * The public option/result types of the port entry point, and the per-file context the Babel-based
 * retire-roots transform reads from and writes edits, markers and notes into.
 */
import { REASONS, isReasonId } from '../../src/analyzer/reasons.js';
import type { Node } from './ast.js';
import type { LegacyCall } from './legacy-calls.js';
import type { Edit, SourceText } from './source-text.js';
import type { HelperImportOptions } from '../../src/port/dependencies.js';

/** `flowImport` and `module`: see HelperImportOptions (the runner decides them per file; defaults come from the file). */
export interface PortOptions extends Partial<HelperImportOptions> {
  codec: 'aead' | 'sdk';
  roots: 'config' | 'ask';
  /** e.g. './mrtr-continuation.js'; the runner computes it per file (relative path + suffix style). */
  continuationImport: string;
}

export interface MarkerAt {
  /** 1-based line, in the ORIGINAL input, of the statement to mark. */
  line: number;
  reason: string;
  message: string;
}

export interface PortSourceResult {
  source: string;
  changed: boolean;
  markers: MarkerAt[];
  notes: string[];
}

/** Which concerns run; the jscodeshift module of each transform file enables its own. */
export interface EnabledTransforms {
  /** The port engine: the plan's wraps, asks, memos and guards (resumable-handlers). */
  resumable: boolean;
  /** Roots requests retired to configuration (with `--roots config`). */
  retireRoots: boolean;
  /** The imports the new code uses. */
  imports: boolean;
}

export const ALL_TRANSFORMS: EnabledTransforms = { resumable: true, retireRoots: true, imports: true };

export interface PortContext {
  src: SourceText;
  /** TypeScript source: new code carries type arguments and annotations; JavaScript gets none. */
  typed: boolean;
  program: Node;
  options: PortOptions;
  enabled: EnabledTransforms;
  /** The roots requests the plan hands to retire-roots. */
  calls: LegacyCall[];
  /** The analyzer's verdict for a call (the plan hands retire-roots only `auto` ones). */
  instructionOf(call: LegacyCall): { portability: 'auto' | 'manual' | 'unportable' | 'guarded'; reasons: string[] } | undefined;
  /** Calls an earlier transform already rewrote. */
  consumed: Set<LegacyCall>;
  edits: Edit[];
  markers: MarkerAt[];
  notes: string[];
}

/** The statement a marker for `node` goes above: the nearest enclosing statement. */
export function statementOf(node: Node, ancestors: readonly Node[]): Node {
  if (/Statement$|Declaration$/.test(node.type) && node.type !== 'BlockStatement') return node;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i];
    if (/Statement$|Declaration$/.test(a.type) && a.type !== 'BlockStatement' && a.type !== 'ExportNamedDeclaration') return a;
  }
  return node;
}

export function addMarker(ctx: PortContext, statement: Node, reason: string): void {
  const line = statement.loc.start.line;
  if (ctx.markers.some((m) => m.line === line && m.reason === reason)) return;
  const message = isReasonId(reason) ? REASONS[reason].advice : reason;
  ctx.markers.push({ line, reason, message });
}
