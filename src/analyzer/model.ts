/**
 * The analyzer's output: the JSON report is a public contract (`version: 1`), documented in the
 * README. Change it only by adding optional fields; anything else bumps `version`.
 */
import type { HandlerKind, SiteForm, SiteKind } from '../vocabulary.js';
import type { ReasonId } from './reasons.js';

export type Portability = 'auto' | 'manual' | 'unportable' | 'guarded';
export type SdkEra = 'v1' | 'v2' | 'unknown';

export interface HandlerRef {
  kind: HandlerKind;
  /** Tool/prompt/resource name when statically known. */
  name: string | null;
  file: string;
  line: number;
  /** The framework that registers the handler (decorators), when no registration call is visible. */
  framework?: string;
}

/**
 * One handler or other entry point that reaches a site, with the verdict of that route alone.
 * `kind` is the handler kind, or for an entry MRTR cannot serve the reason id that says where it is
 * (`notification-handler`, `lifecycle-hook`, `timer`, `http-route`, `ineligible-request`,
 * `task-relay`), or `no-handler` for a function nobody was found calling (`file`/`line` then point at it).
 */
export interface EntryRoute {
  kind: HandlerKind | ReasonId;
  name: string | null;
  file: string;
  line: number;
  via: ViaStep[];
  portability: Portability;
  reasons: ReasonId[];
  framework?: string;
}

export interface ViaStep {
  function: string;
  file: string;
  line: number;
}

export interface Site {
  /** Relative to the working directory, `/`-separated. */
  file: string;
  /** 1-based, at the start of the call (or `throw`) expression. */
  line: number;
  column: number;
  kind: SiteKind;
  form: SiteForm;
  sdk: SdkEra;
  handler: HandlerRef | null;
  via: ViaStep[];
  portability: Portability;
  reasons: ReasonId[];
  /** Every handler and entry point reaching the site, each with its own verdict (test callers only for test sites). */
  handlers?: EntryRoute[];
}

export interface SkippedFile {
  file: string;
  reason: string;
}

export interface AnalysisReport {
  tool: 'mrtr-port';
  version: 1;
  /** `typeChecked`: files whose sites needed the type checker (present only when some did). */
  files: { scanned: number; skipped: SkippedFile[]; typeChecked?: number };
  sites: Site[];
  summary: { sites: number; auto: number; manual: number; unportable: number; guarded: number };
}
