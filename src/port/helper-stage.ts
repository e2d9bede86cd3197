/**
 * The helper stage of `port`: which helper files a package's changed files need, and writing them.
 *
 * A changed file needs every helper it imports (the flow with the new engine, the continuation with the
 * old one), and each of those needs the helpers it imports in turn (the flow imports the continuation and
 * the claim store; the claim store imports the continuation). So the set is read off the ported texts,
 * whichever engine wrote them, and a package never gets a helper nothing imports, nor misses one.
 */
import { relative, sep } from 'node:path';
import { packageRoot } from '../analyzer/modules.js';
import { HELPER_ROLES, type HelperFlavor, type HelperRole, type HelperVariant } from '../runtime/template.js';
import { helperImportSpecifier, helperState } from './helper-file.js';
import type { PackageHelpers } from './helper-plan.js';
import type { HelperOutcome } from './result.js';

/** One helper's text and the helpers it imports (what `renderHelper` gives; tests inject stand-ins). */
export interface HelperText {
  text: string;
  imports: readonly HelperRole[];
}

export type RenderHelper = (role: HelperRole, variant: HelperVariant, flavor: HelperFlavor) => HelperText;

export interface ChangedFile {
  abs: string;
  rel: string;
  output: string;
}

/** A helper the run creates (or diffs under dry-run), and the changed files that need it. */
export interface HelperWrite<F extends ChangedFile = ChangedFile> {
  outcome: HelperOutcome;
  path: string;
  text: string;
  /** The changed files that need it, directly or through another helper: kept as they were if it cannot be written. */
  importers: F[];
}

export interface PackageHelperPlan<F extends ChangedFile = ChangedFile> {
  /** One per helper the package's changed files need, in role order. */
  outcomes: HelperOutcome[];
  /** The missing ones, to write (their outcome says `identical` until written). */
  writes: HelperWrite<F>[];
  /** Helpers that could not be read (the outcome says `failed`) and the files that need them. */
  unreadable: HelperWrite<F>[];
  /** The npm packages the package's helpers import (for package.json): `redis` for the Redis claim store. */
  packages: Set<string>;
}

/**
 * The helpers one package's changed files need, each checked against what is on disk: a missing one is
 * to be written; an existing one is never overwritten (identical is left, different is reported as `differs`).
 */
export function planPackageHelpers<F extends ChangedFile>(helpers: PackageHelpers, changed: readonly F[], io: { cwd: string; render: RenderHelper }): PackageHelperPlan<F> {
  const relOf = (abs: string) => relative(io.cwd, abs).split(sep).join('/');
  const needed = new Map<HelperRole, { text: HelperText; importedBy: Set<string>; files: Set<F> }>();
  // `files`: the changed files that need this helper, directly or through the helper that imports it
  const visit = (role: HelperRole, by: string, files: readonly F[]): void => {
    let entry = needed.get(role);
    const fresh = entry === undefined;
    entry ??= { text: io.render(role, helpers.variant, helpers.flavor), importedBy: new Set(), files: new Set() };
    needed.set(role, entry);
    entry.importedBy.add(by);
    const before = entry.files.size;
    for (const file of files) entry.files.add(file);
    if (fresh || entry.files.size > before) for (const inner of entry.text.imports) visit(inner, relOf(helpers.pathOf(role)), [...entry.files]);
  };
  for (const role of HELPER_ROLES) {
    for (const file of changed) {
      if (importsHelper(file.output, helperImportSpecifier(file.abs, helpers.pathOf(role), ''))) visit(role, file.rel, [file]);
    }
  }

  const plan: PackageHelperPlan<F> = { outcomes: [], writes: [], unreadable: [], packages: new Set() };
  for (const role of HELPER_ROLES) {
    const entry = needed.get(role);
    if (!entry) continue;
    const path = helpers.pathOf(role);
    const outcome: HelperOutcome = { file: relOf(path), status: 'identical', importedBy: [...entry.importedBy].sort() };
    plan.outcomes.push(outcome);
    for (const pkg of packagesImportedBy(entry.text.text)) plan.packages.add(pkg);
    // a TypeScript helper importing `node:*` builds only with Node's types
    if (/\.[cm]?ts$/.test(path) && importsNodeBuiltin(entry.text.text)) plan.packages.add('@types/node');
    const write: HelperWrite<F> = { outcome, path, text: entry.text.text, importers: [...entry.files] };
    try {
      const state = helperState(path, entry.text.text);
      if (state === 'differs') outcome.status = 'differs';
      else if (state === 'missing') plan.writes.push(write);
    } catch (error) {
      outcome.status = 'failed';
      outcome.error = error instanceof Error ? error.message : String(error);
      plan.unreadable.push(write);
    }
  }
  return plan;
}

/** Does the text import the helper (any suffix)? `bare` is the specifier without a suffix. */
export function importsHelper(text: string, bare: string): boolean {
  return ['', '.js', '.ts'].some((suffix) => text.includes(`'${bare}${suffix}'`) || text.includes(`"${bare}${suffix}"`));
}

function importsNodeBuiltin(text: string): boolean {
  return /(?:\bfrom\s*|\brequire\s*\(\s*)['"]node:/.test(text);
}

/** Bare npm package names a helper imports (`redis`, `@modelcontextprotocol/server`). */
function packagesImportedBy(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?:\bfrom\s*|\brequire\s*\(\s*)['"]([^'".][^'"]*)['"]/g)) {
    const spec = m[1];
    if (spec.startsWith('node:')) continue;
    out.add(packageRoot(spec));
  }
  return [...out];
}
