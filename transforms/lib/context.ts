/**
 * The public option/result types of the port entry point, and the per-file context every transform
 * reads from and writes edits, markers and notes into.
 */
import { REASONS, isReasonId } from '../../src/analyzer/reasons.js';
import type { Node } from './ast.js';
import type { LegacyCall } from './legacy-calls.js';
import type { Edit, SourceText } from './source-text.js';
import type { HelperImportOptions } from '../../src/port/dependencies.js';

export interface SiteInstruction {
  line: number;
  /** 1-based, original input. */
  column: number;
  portability: 'auto' | 'manual' | 'unportable' | 'guarded';
  reasons: string[];
}

/** `flowImport` and `module`: see HelperImportOptions (optional until the new engine reads them). */
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
  retireRoots: boolean;
  capabilityBranches: boolean;
  /** Port form elicitation, sampling and (with `--roots ask`) roots into rounds. */
  twoPass: boolean;
  /** Port URL-mode elicitation (elicitInput mode 'url' and UrlElicitationRequiredError). */
  urlElicitation: boolean;
  imports: boolean;
}

export const ALL_TRANSFORMS: EnabledTransforms = {
  retireRoots: true,
  capabilityBranches: true,
  twoPass: true,
  urlElicitation: true,
  imports: true,
};

export interface PortContext {
  src: SourceText;
  /** TypeScript source: new code carries type arguments and annotations; JavaScript gets none. */
  typed: boolean;
  program: Node;
  options: PortOptions;
  enabled: EnabledTransforms;
  calls: LegacyCall[];
  /** The analyzer's verdict for a call, when the runner passed sites. */
  instructionOf(call: LegacyCall): SiteInstruction | undefined;
  /** Module-level functions registered by name, to their registration (see lib/handlers.ts). */
  references: ReadonlyMap<Node, Node>;
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
