/**
 * The helper files `port` writes into a user's project, produced from the tested sources in this
 * directory so the copy a user gets is the code this repository tests:
 * - a TypeScript package gets the source itself (byte-identical, unless its imports of the other
 *   helpers need another file name or suffix);
 * - a JavaScript package gets it through `ts.transpileModule`: types stripped, comments kept, as an ES
 *   module or as CommonJS (`require` / `exports`), matching the package.
 * The only edit besides the transpiler's is the specifier of one helper's import of another: it names
 * the chosen variant's file (`mrtr-continuation-sdk` under `--codec sdk`, `mrtr-claims-redis` under
 * `--claims redis`) with the extension the flavor writes.
 */
import { readFileSync } from 'node:fs';
import ts from '../typescript.cjs';

/** The name the default continuation helper gets next to the user's sources (TypeScript). */
export const CONTINUATION_FILE_NAME = 'mrtr-continuation.ts';

/** Which protection the helper uses: AES-256-GCM (default), or the SDK's HMAC codec (`port --codec sdk`). */
export type ContinuationCodec = 'aead' | 'sdk';

/** The tested source of each variant, in src/runtime; users get it under the same name (transforms import `-sdk` for the SDK codec). */
export const CONTINUATION_SOURCES: Readonly<Record<ContinuationCodec, string>> = {
  aead: CONTINUATION_FILE_NAME,
  sdk: 'mrtr-continuation-sdk.ts',
};

/** Where the flow claims opened states: this process's memory (default), or a Redis every replica shares (`port --claims redis`). */
export type ClaimStoreKind = 'memory' | 'redis';

export const CLAIM_STORE_KINDS: readonly ClaimStoreKind[] = ['memory', 'redis'];

/** Which variant of each helper a package gets: the codec (`--codec`) and the claim store (`--claims`). */
export interface HelperVariant {
  codec: ContinuationCodec;
  /** Default `memory`. */
  claims?: ClaimStoreKind;
}

/**
 * The helper files: `flow` drives a ported handler across rounds and imports `continuation` (seal/open,
 * claims, roots) and `claims` (the store it claims opened states in, which imports `continuation` too).
 */
export type HelperRole = 'flow' | 'continuation' | 'claims';

export const HELPER_ROLES: readonly HelperRole[] = ['flow', 'continuation', 'claims'];

/** Every role's file name without extension, per variant (the same name in src/runtime and in the user's project). */
const HELPER_BASES: Readonly<Record<HelperRole, (variant: Required<HelperVariant>) => string>> = {
  flow: () => 'mrtr-flow',
  continuation: ({ codec }) => CONTINUATION_SOURCES[codec].replace(/\.ts$/, ''),
  claims: ({ claims }) => (claims === 'redis' ? 'mrtr-claims-redis' : 'mrtr-claims'),
};

/** The npm package a claim store's helper imports, at the version this repository tests it with (it goes into the user's package.json). */
export const CLAIM_STORE_PACKAGES: Readonly<Record<ClaimStoreKind, string | undefined>> = { memory: undefined, redis: 'redis' };

export type HelperLanguage = 'ts' | 'esm' | 'cjs';

/** How a package's helpers are written. */
export interface HelperFlavor {
  language: HelperLanguage;
  /** The extension of every helper file: `.ts`; `.js`/`.mjs` for ES modules; `.js`/`.cjs` for CommonJS. */
  extension: '.ts' | '.js' | '.mjs' | '.cjs';
  /** TypeScript only: the suffix the helpers' imports of each other carry, in the package's style (default `.js`). */
  importSuffix?: '' | '.js' | '.ts';
}

/** The flavor of the tested sources themselves. */
export const TS_FLAVOR: HelperFlavor = { language: 'ts', extension: '.ts', importSuffix: '.js' };

const EXTENSIONS: Readonly<Record<HelperLanguage, readonly HelperFlavor['extension'][]>> = {
  ts: ['.ts'],
  esm: ['.js', '.mjs'],
  cjs: ['.js', '.cjs'],
};

export interface RenderedHelper {
  role: HelperRole;
  /** The file name in the user's project, e.g. `mrtr-flow.cjs`. */
  fileName: string;
  text: string;
  /** The other helpers this one imports (they must be written next to it). */
  imports: HelperRole[];
}

/** The file name of a helper in the user's project. A codec alone stands for that codec with the default claim store. */
export function helperFileName(role: HelperRole, variant: ContinuationCodec | HelperVariant, flavor: HelperFlavor): string {
  return helperBase(role, variant) + flavor.extension;
}

/** One helper, rendered for a variant and a flavor. Throws for an unknown codec, claim store or role, or a flavor that cannot be. */
export function renderHelper(role: HelperRole, variant: ContinuationCodec | HelperVariant, flavor: HelperFlavor): RenderedHelper {
  if (!Object.hasOwn(EXTENSIONS, flavor.language) || !EXTENSIONS[flavor.language].includes(flavor.extension)) {
    throw new RangeError(`renderHelper: no ${JSON.stringify(flavor.extension)} helper for ${JSON.stringify(flavor.language)}`);
  }
  const sourceName = helperBase(role, variant) + '.ts';
  const source = helperSourceText(sourceName);
  const { text: pointed, imports } = pointHelperImports(source, sourceName, variant, flavor);
  return { role, fileName: helperFileName(role, variant, flavor), text: transpile(pointed, sourceName, flavor.language), imports };
}

/**
 * The continuation helper's tested source for a codec (what a TypeScript package gets). Works from
 * `src/runtime` (tsx, vitest) and from the built `dist/src/runtime` (the package ships `src/runtime`
 * beside `dist`).
 */
export function continuationTemplate(codec: ContinuationCodec = 'aead'): string {
  const file = Object.hasOwn(CONTINUATION_SOURCES, codec) ? CONTINUATION_SOURCES[codec] : undefined;
  if (file === undefined) throw unknownCodec(codec);
  return helperSourceText(file);
}

/** A tested source file of src/runtime, by name. */
export function helperSourceText(file: string): string {
  const candidates = [new URL(`./${file}`, import.meta.url), new URL(`../../../src/runtime/${file}`, import.meta.url)];
  for (const candidate of candidates) {
    try {
      return readFileSync(candidate, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new Error(`helper source ${file} not found next to ${new URL('.', import.meta.url).pathname} nor in the package's src/runtime`);
}

function helperBase(role: HelperRole, variant: ContinuationCodec | HelperVariant): string {
  const { codec, claims = 'memory' } = typeof variant === 'string' ? { codec: variant } : variant;
  if (!Object.hasOwn(CONTINUATION_SOURCES, codec)) throw unknownCodec(codec);
  if (!CLAIM_STORE_KINDS.includes(claims)) throw new RangeError(`unknown claim store ${JSON.stringify(claims)} (expected "memory" or "redis")`);
  if (!Object.hasOwn(HELPER_BASES, role)) throw new RangeError(`unknown helper ${JSON.stringify(role)} (expected "flow", "continuation" or "claims")`);
  return HELPER_BASES[role]({ codec, claims });
}

function unknownCodec(codec: unknown): RangeError {
  return new RangeError(`continuationTemplate: unknown codec ${JSON.stringify(codec)} (expected "aead" or "sdk")`);
}

/** The role a relative specifier of a helper source names (`./mrtr-continuation.js` → continuation, `./mrtr-claims.js` → claims). */
function roleOfSpecifier(specifier: string): HelperRole | undefined {
  const base = specifier.replace(/^\.\//, '').replace(/\.[cm]?[jt]s$/, '');
  const variants = (['aead', 'sdk'] as const).flatMap((codec) => CLAIM_STORE_KINDS.map((claims) => ({ codec, claims })));
  return HELPER_ROLES.find((role) => variants.some((variant) => HELPER_BASES[role](variant) === base));
}

/**
 * Points each relative import of a helper source at the helper file the package gets: the codec's
 * variant, with the flavor's extension (or the package's suffix style in TypeScript). Any other relative
 * import in a helper source is a bug of this repository: it would not exist in the user's project.
 */
function pointHelperImports(
  source: string,
  sourceName: string,
  variant: ContinuationCodec | HelperVariant,
  flavor: HelperFlavor,
): { text: string; imports: HelperRole[] } {
  const sf = ts.createSourceFile(sourceName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const edits: { start: number; end: number; text: string }[] = [];
  const imports: HelperRole[] = [];
  for (const statement of sf.statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier
        : undefined;
    if (!specifier || !specifier.text.startsWith('.')) continue;
    const role = roleOfSpecifier(specifier.text);
    if (role === undefined) throw new Error(`helper source ${sourceName} imports ${specifier.text}, which is not a helper file`);
    if (!imports.includes(role)) imports.push(role);
    const suffix = flavor.language === 'ts' ? (flavor.importSuffix ?? '.js') : flavor.extension;
    const quote = source[specifier.getStart(sf)];
    edits.push({ start: specifier.getStart(sf), end: specifier.end, text: `${quote}./${helperBase(role, variant)}${suffix}${quote}` });
  }
  let text = source;
  for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return { text, imports };
}

/** Types stripped, comments kept; ES module or CommonJS output. TypeScript keeps the source. */
function transpile(source: string, fileName: string, language: HelperLanguage): string {
  if (language === 'ts') return source;
  const output = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: {
      module: language === 'esm' ? ts.ModuleKind.ESNext : ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      isolatedModules: true,
      removeComments: false,
      sourceMap: false,
      newLine: ts.NewLineKind.LineFeed,
    },
  });
  const errors = (output.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    throw new Error(`helper source ${fileName} does not transpile: ${ts.flattenDiagnosticMessageText(errors[0].messageText, '\n')}`);
  }
  return output.outputText;
}
