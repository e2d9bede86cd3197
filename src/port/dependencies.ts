/**
 * What the runner needs from the other parts of mrtr-port: file discovery, the analyzer, the transform
 * entry point and the continuation helper template. Loaded on first use; a test (or an embedder) can
 * replace any of them through `runPort({ dependencies })`, e.g. to inject a transform that throws.
 */
import type ts from 'typescript';
import type { PortOptions, PortSourceInput } from '../../transforms/index.js';
import type { AnalyzeResult, PlanOptions } from '../analyzer/index.js';
import type { HelperFlavor, HelperRole, HelperVariant } from '../runtime/template.js';
import type { HelperText } from './helper-stage.js';

export type { PortOptions };

/**
 * How one ported file reaches the runtime helpers, decided per file by the runner's helper stage
 * (src/port/helper-file.ts) and written by the transforms' import writer. Every runtime name a ported
 * file uses (`resumable`, `once`, `elicit`, …, and `rootsFromConfig` for retired roots) is imported
 * from the flow file; the flow file reaches the continuation (and claim-store) file itself.
 */
export interface HelperImportOptions {
  /**
   * The flow helper's module specifier exactly as this file must write it: relative, in the file's
   * suffix style, and always with the real extension in JavaScript (`./mrtr-flow.js`, `../mrtr-flow`,
   * `./mrtr-flow.mjs`, `./lib/mrtr-flow.cjs`).
   */
  flowImport: string;
  /**
   * The file's module system: `esm` → `import { a, b } from '<flowImport>';`;
   * `cjs` → `const { a, b } = require('<flowImport>');` (a CommonJS file never gets an `import` line).
   */
  module: 'esm' | 'cjs';
}
/** What the transform entry point takes: one file's text, its plan (from the analyzer) and the port options. */
export type TransformInput = PortSourceInput;

export interface DiscoverResult {
  files: string[];
  missing: string[];
  empty: string[];
  /** Symlinks met while walking, not followed (reported as skipped). */
  symlinks?: string[];
  /** Folders that could not be listed (reported as skipped: they may hold sources). */
  unreadable?: { path: string; code: string }[];
}

/** The analyzer's result; `handlers` and `plans` are optional so a stand-in analyzer can leave them out (then nothing is ported). */
export type AnalyzeResultLike = Pick<AnalyzeResult, 'report'> & Partial<Pick<AnalyzeResult, 'handlers' | 'plans'>>;

/** A helper's text in one variant and flavor, and the other helpers it imports (they go next to it). */
export type HelperTemplate = HelperText;

export interface PortDependencies {
  discoverFiles(options: { cwd: string; paths: readonly string[]; ignore: readonly string[] }): Promise<DiscoverResult>;
  /**
   * `texts`: the files' contents as the runner read them (the default analyzer then reads nothing again);
   * `onTree`: told each tree the analyzer parsed (the runner reuses them instead of parsing again).
   */
  analyze(options: {
    cwd: string;
    files: readonly string[];
    texts?: ReadonlyMap<string, string>;
    onTree?: (file: string, sf: ts.SourceFile) => void;
    /** How the port's plans are made (roots asked or from configuration). */
    plan?: PlanOptions;
  }): AnalyzeResultLike | Promise<AnalyzeResultLike>;
  /**
   * Reads and binds what the analyzer's type checker will need besides the files (lib files, the
   * packages they import) while the v1 migration runs on another thread; optional (an optimisation).
   * `texts`: the files as read, before the migration.
   */
  prepareTypes?(options: { cwd: string; files: readonly string[]; texts: ReadonlyMap<string, string> }): void;
  /** The transform with markers inserted (`applyPortSource`). */
  transform(input: TransformInput): string;
  /** One helper file (`renderHelper`); throws for a codec, claim store or flavor that has none. */
  helperTemplate(role: HelperRole, variant: HelperVariant, flavor: HelperFlavor): HelperTemplate;
}

export async function loadDefaultDependencies(): Promise<PortDependencies> {
  const [discover, analyzer, transforms, template] = await Promise.all([
    import('./discover.js'),
    import('../analyzer/index.js'),
    import('../../transforms/index.js'),
    import('../runtime/template.js'),
  ]);
  return {
    discoverFiles: (o) => discover.discoverFiles({ cwd: o.cwd, paths: [...o.paths], ignore: [...o.ignore] }),
    analyze: (o) => analyzer.analyze({ cwd: o.cwd, files: o.files, texts: o.texts, onTree: o.onTree, plan: o.plan }),
    prepareTypes: (o) => analyzer.prepareTypeDeclarations(o),
    transform: (input) => transforms.applyPortSource(input),
    helperTemplate: (role, variant, flavor) => template.renderHelper(role, variant, flavor),
  };
}

