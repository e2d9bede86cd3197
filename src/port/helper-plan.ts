/**
 * The helper files of one package, decided before the transform runs: in which language and module
 * system they are written (the package's, from its files that go through the port), where they go,
 * and how each of those files imports them (`PortOptions.flowImport` / `module`).
 *
 * Flavor: any TypeScript file → `.ts`; only ES modules → `.js` in a `"type": "module"` package, else
 * `.mjs`; only CommonJS → `.js` in a CommonJS package whose files are `.js`, else `.cjs`; ES modules and
 * CommonJS together → one `.cjs` helper that both import (an ES module imports CommonJS by name; two
 * copies would not share the flow of a call).
 */
import { dirname, join } from 'node:path';
import { HELPER_ROLES, helperFileName, type ContinuationCodec, type HelperFlavor, type HelperRole, type HelperVariant } from '../runtime/template.js';
import { helperImportSpecifier, helperPathFor, isTypeScriptFile, moduleSystemOf, type ImportSuffix, type ModuleSystem, type PackageLayout } from './helper-file.js';

export interface PortedFileText {
  abs: string;
  /** The text the transform starts from. */
  text: string;
}

/** How one file reaches the helpers. */
export interface HelperImport {
  /** The flow helper (what the new engine imports). */
  flowImport: string;
  /** The default-codec continuation helper (what the old engine imports; it derives `-sdk` itself). */
  continuationImport: string;
  module: ModuleSystem;
}

export class PackageHelpers {
  readonly flavor: HelperFlavor;
  /** The directory every helper of this package goes to. */
  readonly dir: string;
  readonly variant: Required<HelperVariant>;

  /**
   * `files`: every file of the package the transform will see; `placedBy`: those whose directory
   * decides where the helpers go (the files with portable sites), default all of them.
   */
  constructor(
    private readonly layout: PackageLayout,
    readonly root: string,
    variant: ContinuationCodec | HelperVariant,
    files: readonly PortedFileText[],
    placedBy: readonly PortedFileText[] = files,
  ) {
    if (files.length === 0) throw new Error(`PackageHelpers: no ported file in ${root}`);
    this.variant = typeof variant === 'string' ? { codec: variant, claims: 'memory' } : { codec: variant.codec, claims: variant.claims ?? 'memory' };
    this.flavor = flavorOf(layout, root, files);
    const names = HELPER_ROLES.map((role) => helperFileName(role, this.variant, this.flavor));
    this.dir = dirname(helperPathFor(root, (placedBy.length > 0 ? placedBy : files).map((f) => f.abs), names));
  }

  /** Where a helper of this package goes (`codec` overrides the package's, for the old engine's import of the default name). */
  pathOf(role: HelperRole, codec: ContinuationCodec = this.variant.codec): string {
    return join(this.dir, helperFileName(role, { ...this.variant, codec }, this.flavor));
  }

  importFor(file: PortedFileText): HelperImport {
    const suffix = this.layout.importSuffix(file.text, this.root);
    return {
      flowImport: helperImportSpecifier(file.abs, this.pathOf('flow'), suffix),
      continuationImport: helperImportSpecifier(file.abs, this.pathOf('continuation', 'aead'), suffix),
      module: moduleSystemOf(file.abs, file.text, this.layout.packageType(this.root)),
    };
  }
}

function flavorOf(layout: PackageLayout, root: string, files: readonly PortedFileText[]): HelperFlavor {
  const ts = files.filter((f) => isTypeScriptFile(f.abs));
  if (ts.length > 0) return { language: 'ts', extension: '.ts', importSuffix: packageSuffix(ts.map((f) => layout.importSuffix(f.text, root))) };
  const packageType = layout.packageType(root);
  const modules = new Set(files.map((f) => moduleSystemOf(f.abs, f.text, packageType)));
  if (!modules.has('cjs')) return { language: 'esm', extension: packageType === 'module' ? '.js' : '.mjs' };
  const plainJs = packageType === 'commonjs' && !modules.has('esm') && files.every((f) => !f.abs.endsWith('.cjs'));
  return { language: 'cjs', extension: plainJs ? '.js' : '.cjs' };
}

/** How the TypeScript helpers import each other: `.ts` if any ported file imports `.ts` paths, `.js` if any uses `.js`, else none. */
function packageSuffix(suffixes: readonly ImportSuffix[]): ImportSuffix {
  if (suffixes.includes('.ts')) return '.ts';
  return suffixes.includes('.js') ? '.js' : '';
}
