/**
 * What the runner needs from the other parts of mrtr-port: file discovery, the analyzer, the transform
 * entry point and the continuation helper template. Loaded on first use; a test (or an embedder) can
 * replace any of them through `runPort({ dependencies })`, e.g. to inject a transform that throws.
 */
import { readFileSync } from 'node:fs';
import type ts from 'typescript';
import type { AnalysisReport } from '../analyzer/model.js';
import type { HandlerKind } from '../vocabulary.js';

export interface DiscoverResult {
  files: string[];
  missing: string[];
  empty: string[];
}

export interface AnalyzeResultLike {
  report: AnalysisReport;
  handlers?: ReadonlyArray<{ file: string; kind: HandlerKind; name: string | null; start: number; end: number; siteIndexes: number[] }>;
}

export interface SiteInstruction {
  line: number;
  column: number;
  portability: 'auto' | 'manual' | 'unportable' | 'guarded';
  reasons: string[];
}

export interface PortOptions {
  codec: 'aead' | 'sdk';
  roots: 'config' | 'ask';
  continuationImport: string;
}

export interface TransformInput {
  source: string;
  path: string;
  sites?: readonly SiteInstruction[];
  options: PortOptions;
}

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
    helperTemplate(codec) {
      if (codec === 'aead') return { fileName: template.CONTINUATION_FILE_NAME, text: template.continuationTemplate() };
      const fileName = template.CONTINUATION_FILE_NAME.replace(/\.ts$/, '-sdk.ts');
      const sdk = (template as Record<string, unknown>).sdkContinuationTemplate;
      return { fileName, text: typeof sdk === 'function' ? String(sdk()) : readRuntimeFile(fileName) };
    },
  };
}

/**
 * A helper variant the runtime keeps beside the default one, for a runtime module that exports no
 * template function for it: read from `src/runtime` (tsx, vitest) or, from `dist/src/port`, from the
 * `src/runtime` the package ships.
 */
function readRuntimeFile(fileName: string): string {
  for (const candidate of [new URL(`../runtime/${fileName}`, import.meta.url), new URL(`../../../src/runtime/${fileName}`, import.meta.url)]) {
    try {
      return readFileSync(candidate, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new Error(`--codec sdk: the runtime helper ${fileName} is not installed with mrtr-port`);
}
