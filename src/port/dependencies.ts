/**
 * What the runner needs from the other parts of mrtr-port: file discovery, the analyzer, the transform
 * entry point and the continuation helper template. Loaded on first use; a test (or an embedder) can
 * replace any of them through `runPort({ dependencies })`, e.g. to inject a transform that throws.
 */
import type ts from 'typescript';
import type { PortOptions, PortSourceInput, SiteInstruction } from '../../transforms/index.js';
import type { AnalyzeResult } from '../analyzer/index.js';

export type { PortOptions, SiteInstruction };

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
/** What the transform entry point takes: one file's text, its sites and the port options. */
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

/** The analyzer's result; `handlers` is optional so a stand-in analyzer can leave it out. */
export type AnalyzeResultLike = Pick<AnalyzeResult, 'report'> & Partial<Pick<AnalyzeResult, 'handlers'>>;

export interface HelperTemplate {
  /** File name written next to the sources, e.g. `mrtr-continuation.ts`. */
  fileName: string;
  text: string;
}

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
  }): AnalyzeResultLike | Promise<AnalyzeResultLike>;
  /** The transform with markers inserted (`applyPortSource`). */
  transform(input: TransformInput): string;
  /** The helper file for a codec; throws when that codec has no helper. */
  helperTemplate(codec: PortOptions['codec']): HelperTemplate;
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
    analyze: (o) => analyzer.analyze({ cwd: o.cwd, files: o.files, texts: o.texts, onTree: o.onTree }),
    transform: (input) => transforms.applyPortSource(input),
    helperTemplate: (codec) => ({ fileName: template.CONTINUATION_SOURCES[codec], text: template.continuationTemplate(codec) }),
  };
}
