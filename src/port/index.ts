/**
 * The `port` runner, in-process: discover → read (read.ts: bytes, encoding, fingerprint) → v1 migration →
 * analyze (the migrated texts, in memory) → transform (only files with sites) → restore framing →
 * re-parse → helper file → write (write.ts) or diff.
 *
 * Safety: a file is written only after its new text re-parses; anything that fails for a file (v1
 * migration or transform throws, output does not parse, its helper cannot be written, the file is
 * read-only or changed on disk since it was read, the write fails) leaves that file byte-identical and
 * reports it as failed with the error. Nothing is written under `dryRun` (diffs instead, the helper as
 * a new-file diff). Untouched files are never re-printed.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type ts from 'typescript';
import type { Site } from '../analyzer/model.js';
import { planEdits, type FilePlan } from '../analyzer/plan/model.js';
import { betweenFiles, findDebris, sweepDebris, sweepStaleAnalysisMirrors, withSignalCleanup } from './cleanup.js';
import { checkAutoSitesPlanned, markUnhandledSites } from './coverage.js';
import { loadDefaultDependencies, type PortDependencies, type PortOptions } from './dependencies.js';
import { fileDiff, newFileDiff } from './diff.js';
import { restoreFraming } from './framing.js';
import { hasModuleSyntax, PackageLayout } from './helper-file.js';
import { PackageHelpers } from './helper-plan.js';
import { planPackageHelpers, type HelperWrite } from './helper-stage.js';
import { TS_FLAVOR, helperFileName, type ClaimStoreKind } from '../runtime/template.js';
import { importedPackages, updateManifest } from './manifest.js';
import { v1ImportersOutside } from './outside-importers.js';
import { findV1OnlyCalls, mayCallV1OnlyApis } from './v1-only-calls.js';
import { foreignReceiverCalls, type ForeignCall } from './v1-foreign-receivers.js';
import { settleForwardedContextComments } from './v1-forwarded-context.js';
import { legacyTransportsIn, nextSteps, portedRuntimeIn, serverFactoryIn } from './next-steps.js';
import { uncommittedFiles } from './git-guard.js';
import { findMarkers } from './markers.js';
import { reportPathProblem } from './output-path.js';
import { MARKERS } from '../vocabulary.js';
import {
  PortUsageError,
  type FileOutcome,
  type HelperOutcome,
  type ManifestOutcome,
  type PortResult,
  type PortSummary,
} from './result.js';
import { countCodemodMarkers, inferProjectType, isV1Source, type ProjectType } from './v1-detect.js';
import { describeParseProblem, firstParseProblem } from './verify.js';
import { decode, encode } from './encoding.js';
import { namesLegacyMethod, readSources, readTextFile, type SourceText } from './read.js';
import { Writer, type PendingWrite } from './write.js';

export { portExitCode, PortUsageError, EXIT } from './result.js';
export type { FileOutcome, HelperOutcome, ManifestOutcome, PortResult, PortSummary } from './result.js';
export type { PortDependencies } from './dependencies.js';

export interface RunPortOptions {
  cwd: string;
  paths: readonly string[];
  ignore?: readonly string[];
  dryRun?: boolean;
  skipV1?: boolean;
  codec?: PortOptions['codec'];
  roots?: PortOptions['roots'];
  /** The claim store the ported code uses: this process's memory (default), or a Redis every replica shares. */
  claims?: ClaimStoreKind;
  /** Write read-only files too (keeping their mode), and write despite uncommitted changes in git. */
  force?: boolean;
  /** Where the CLI will write the report: checked before anything is written (not a scanned source, writable). */
  reportFile?: string;
  /** Files larger than this many bytes are skipped (`too-large`); default `DEFAULT_MAX_FILE_SIZE`. */
  maxFileSize?: number;
  /** Replaces the swap of a changed file (or the helper) into place; the write stage's checks run first. */
  write?: (file: string, bytes: Buffer) => void;
  /** Called right before each file is swapped into place (tests change the file here, to be refused). */
  beforeSwap?: (file: string) => void;
  /** Replace any stage the runner borrows from the rest of mrtr-port (tests inject failures here). */
  dependencies?: Partial<PortDependencies>;
  /** Told what a long run is doing (the CLI shows it on a TTY only). */
  onProgress?: (message: string) => void;
}

/** Runs from this many files on report progress. */
export const LONG_RUN_FILES = 500;

const MCP_SCOPE = '@modelcontextprotocol/';
const ZOD = 'zod';

/**
 * Per-file working state through the stages. Each file is read once; the analyzer gets the same texts
 * (the runner's text searches and the analyzer's prefilter would otherwise read every file twice).
 */
class WorkFile {
  /** Text after the v1 migration, when it ran. */
  migrated: string | undefined;
  /** Calls the v1 migration left as written: the receiver is the repository's own object, not a server. */
  keptCalls: ForeignCall[] = [];
  /** Final text, when the file changed. */
  rewritten: string | undefined;
  sites: Site[] = [];
  readonly outcome: FileOutcome;

  constructor(
    readonly abs: string,
    readonly rel: string,
    readonly original: string,
    /** What the read stage got (undefined when the file could not be read). */
    readonly source?: SourceText,
  ) {
    this.outcome = { file: rel, status: 'unchanged', v1Migrated: false, sites: 0, markers: 0, codemodMarkers: 0 };
  }

  /** Does it hold markers from an earlier run (ours or the official codemod's)? */
  get hasMarkers(): boolean {
    return this.original.includes(MARKERS.todo) || this.original.includes(MARKERS.sdkCodemod);
  }

  /** Could it import an MCP package or zod? (A text search: manifests read imports only from those.) */
  get mayImportPackages(): boolean {
    return this.rewritten !== undefined || this.original.includes(MCP_SCOPE) || this.original.includes(ZOD);
  }

  /** The text the transform starts from. */
  get working(): string {
    return this.migrated ?? this.original;
  }

  /** The text the file has after the run (the original unless it changed). */
  get output(): string {
    return this.rewritten ?? this.original;
  }
}

export function runPort(options: RunPortOptions): Promise<PortResult> {
  // a SIGINT/SIGTERM during the run removes this run's temp files before the process ends
  return withSignalCleanup(() => port(options));
}

async function port(options: RunPortOptions): Promise<PortResult> {
  const cwd = resolve(options.cwd);
  const codec = options.codec ?? 'aead';
  const claims = options.claims ?? 'memory';
  const roots = options.roots ?? 'config';
  const dryRun = options.dryRun ?? false;
  const skipV1 = options.skipV1 ?? false;
  const deps = await resolveDependencies(options.dependencies);

  const discovered = await deps.discoverFiles({ cwd, paths: options.paths, ignore: options.ignore ?? [] });
  if (discovered.missing.length > 0) throw new PortUsageError(`path not found: ${discovered.missing.join(', ')}`);
  if (discovered.empty.length > 0) throw new PortUsageError(`no source files in: ${discovered.empty.join(', ')}`);
  // Fail before touching anything when the codec has no helper, the report path is unusable, or git has uncommitted work.
  // (by name only: rendering a helper loads the compiler, which a run with nothing to port never needs)
  helperFileName('continuation', { codec, claims }, TS_FLAVOR);
  if (options.reportFile !== undefined) {
    const problem = reportPathProblem(cwd, options.reportFile, discovered.files);
    if (problem) throw new PortUsageError(problem);
  }
  const layout = new PackageLayout(cwd);
  if (!dryRun && !options.force) guardUncommitted(cwd, discovered.files, layout);

  const relOf = (abs: string) => relative(cwd, abs).split(sep).join('/');
  const progress = discovered.files.length >= LONG_RUN_FILES ? options.onProgress : undefined;

  // Stage: debris of interrupted runs goes before anything is read (a half-written file is restored first).
  const dirs = debrisFolders(cwd, discovered.files);
  sweepStaleAnalysisMirrors();
  const swept = dryRun ? undefined : sweepDebris(dirs);
  // a dry run restores nothing: a file an interrupted in-place write may have left half written is not shown as if it were the source
  const interrupted = dryRun ? new Set(findDebris(dirs).filter((d) => d.kind === 'orig').map((d) => d.target)) : new Set<string>();

  // Stage: read.
  progress?.(`reading ${discovered.files.length} files…`);
  const work = new Map<string, WorkFile>();
  const considered = new Set<WorkFile>();
  const unlisted = (abs: string, reason: string, mayHoldSites: boolean) => {
    const wf = new WorkFile(abs, relOf(abs), '');
    skip(wf, reason);
    if (mayHoldSites) wf.outcome.mayHoldSites = true;
    considered.add(wf);
    work.set(wf.rel, wf);
  };
  // what the walk could not enter is said, never left out silently
  for (const folder of discovered.unreadable ?? []) unlisted(folder.path, `unreadable: ${folder.code} (a folder that could not be listed)`, true);
  for (const link of discovered.symlinks ?? []) unlisted(link, 'symlink-not-followed', false);
  for (const read of readSources(discovered.files, { cwd, maxFileSize: options.maxFileSize })) {
    if (!read.ok) {
      unlisted(read.abs, read.reason, read.mayHoldSites);
      continue;
    }
    if (interrupted.has(read.file.target)) {
      unlisted(read.file.abs, 'interrupted-write: an earlier run stopped while writing this file; run port without --dry-run to restore it first', true);
      continue;
    }
    const wf = new WorkFile(read.file.abs, read.file.rel, read.file.text, read.file);
    work.set(wf.rel, wf);
    if (wf.hasMarkers) considered.add(wf);
  }

  // Stage: SDK v1 → v2 with the official codemod.
  const v1 = [...work.values()].filter((wf) => wf.outcome.status === 'unchanged' && isV1Source(wf.original));
  // modules of those packages that import no SDK but call v1-only API on a server they are handed
  // (`export function register(server) { server.tool(…) }`): v2 would throw at start-up, so they migrate too
  const v1Packages = new Set(v1.map((wf) => layout.packageRootOf(wf.abs)));
  if (v1Packages.size > 0) {
    for (const wf of work.values()) {
      if (wf.outcome.status !== 'unchanged' || v1.includes(wf) || !mayCallV1OnlyApis(wf.original)) continue;
      if (v1Packages.has(layout.packageRootOf(wf.abs)) && findV1OnlyCalls(wf.original, wf.abs).length > 0) v1.push(wf);
    }
  }
  if (skipV1) {
    for (const wf of v1) {
      skip(wf, 'sdk-v1: left alone (--skip-v1)');
      considered.add(wf);
    }
  } else if (v1.length > 0) {
    progress?.(`migrating ${v1.length} SDK v1 files…`);
    // ts-morph and the official codemod load only when there is a v1 file to migrate, in a worker thread
    // while this one reads the declarations the plan's type checker will need (v1-migration-pool.ts)
    const { migrateV1Files } = await import('./v1-migration-pool.js');
    const projectTypes = projectTypesByPackage(v1, layout);
    const readable = [...work.values()].filter((wf) => wf.outcome.status === 'unchanged');
    // the codemod renames `x.tool(…)` whatever `x` is: calls on the repository's own objects stay as written
    const foreign = foreignReceiverCalls({ cwd, files: readable.map((wf) => wf.abs), texts: new Map(readable.map((wf) => [wf.abs, wf.original])), targets: v1.map((wf) => wf.abs) });
    for (const wf of v1) wf.keptCalls = foreign.get(wf.abs) ?? [];
    const jobs = v1.map((wf) => ({ source: wf.original, path: wf.abs, projectType: projectTypes.get(layout.packageRootOf(wf.abs)), keep: wf.keptCalls.flatMap((c) => c.names) }));
    const prepare = deps.prepareTypes && (() => deps.prepareTypes!({ cwd, files: readable.map((wf) => wf.abs), texts: new Map(readable.map((wf) => [wf.abs, wf.original])) }));
    const outcomes = await migrateV1Files(jobs, prepare);
    v1.forEach((wf, i) => {
      considered.add(wf);
      const outcome = outcomes[i];
      if (!outcome.ok) return fail(wf, `v1 migration failed: ${outcome.error}`);
      wf.migrated = outcome.result.source;
      wf.outcome.v1Migrated = outcome.result.changed;
    });
  }

  // Stage: analyze, in memory: the analyzer gets the texts as read, or as migrated for v1 files.
  const analyzable = [...work.values()].filter((wf) => wf.outcome.status === 'unchanged');
  progress?.(`analyzing ${analyzable.length} files…`);
  // the analyzer's trees (of the texts it was given): the leftover-site check reuses them
  const trees = new Map<string, ts.SourceFile>();
  // what the transform applies to each file (the analyzer's plan: docs/engine.md)
  const { report, plans } = await deps.analyze({
    cwd,
    files: analyzable.map((wf) => wf.abs),
    texts: new Map(analyzable.map((wf) => [wf.abs, wf.working])),
    onTree: (file, sf) => trees.set(file, sf),
    plan: { roots },
  });
  for (const s of report.files.skipped) {
    const wf = work.get(s.file);
    if (!wf || wf.outcome.status !== 'unchanged') continue;
    // A file the analyzer could not parse is left as it was, migration included.
    wf.migrated = undefined;
    wf.outcome.v1Migrated = false;
    skip(wf, s.reason);
    considered.add(wf);
  }
  for (const site of report.sites) {
    const wf = work.get(site.file);
    if (!wf || wf.outcome.status !== 'unchanged') continue;
    wf.sites.push(site);
    wf.outcome.sites = wf.sites.length;
    considered.add(wf);
  }
  for (const abs of trees.keys()) if (!work.get(relOf(abs))?.sites.length) trees.delete(abs);
  // plans are keyed by the path relative to the working directory, as sites are
  const planOf = new Map((plans ?? []).map((p) => [p.file, p]));
  // a file with no site of its own may still be edited: the handler registered there wraps a helper's ask
  const planned = (wf: WorkFile): boolean => planEdits(planOf.get(wf.rel)) > 0;
  for (const wf of work.values()) if (wf.outcome.status === 'unchanged' && planned(wf)) considered.add(wf);

  // Stage: place the helpers (per package) before the transform, which needs their import paths; their
  // language and module system follow the package's files the transform sees (helper-plan.ts).
  const transformed = [...considered].filter((wf) => wf.outcome.status === 'unchanged' && (wf.sites.some((s) => s.portability !== 'guarded') || planned(wf)));
  const packageHelpers = new Map<string, PackageHelpers>();
  for (const [pkg, files] of groupBy(transformed, (wf) => layout.packageRootOf(wf.abs))) {
    const texts = files.map((wf) => ({ abs: wf.abs, text: wf.working }));
    const placedBy = files.filter((wf) => wf.sites.some((s) => s.portability === 'auto')).map((wf) => ({ abs: wf.abs, text: wf.working }));
    packageHelpers.set(pkg, new PackageHelpers(layout, pkg, { codec, claims }, texts, placedBy));
  }

  // Stage: transform, restore framing, re-parse.
  progress?.(`porting ${[...considered].filter((wf) => wf.sites.length > 0).length} files with sites…`);
  for (const wf of considered) {
    if (wf.outcome.status !== 'unchanged') continue;
    let text = wf.working;
    // all guarded: already dual-era, nothing to do; otherwise the transform sees every site (guarded ones too, to leave them)
    if (wf.sites.some((s) => s.portability !== 'guarded') || planned(wf)) {
      // a file with no `auto` site may still use the helpers (e.g. roots retired to configuration)
      const helperImport = packageHelpers.get(layout.packageRootOf(wf.abs))!.importFor({ abs: wf.abs, text: wf.working });
      try {
        const plan = planOf.get(wf.rel) ?? null;
        // auto is a promise: a site the plan does not rewrite fails the file, it is never left to a marker
        checkAutoSitesPlanned(wf.working, wf.sites, plan);
        text = deps.transform({
          source: wf.working,
          path: wf.abs,
          plan,
          options: { codec, roots, ...helperImport },
          tree: trees.get(wf.abs),
        });
      } catch (error) {
        fail(wf, `transform failed: ${messageOf(error)}`);
        continue;
      }
      if (typeof text !== 'string') {
        fail(wf, 'transform failed: returned no text');
        continue;
      }
      text = markUnhandledSites(wf.abs, wf.working, text, wf.sites, trees.get(wf.abs)).text;
      // Node refuses to load a CommonJS file with an `import` line: never write one (a transform that
      // cannot write `require` for this file leaves it as it was, said so)
      if (helperImport.module === 'cjs' && !hasModuleSyntax(wf.abs, wf.working) && hasModuleSyntax(wf.abs, text)) {
        fail(wf, 'transform failed: it wrote ES module import/export lines into a CommonJS file, which Node would not load; left as it was');
        continue;
      }
    }
    text = restoreFraming(wf.original, text);
    if (text === wf.original) continue;
    const problem = firstParseProblem(wf.abs, text);
    if (problem) {
      fail(wf, `output does not parse: ${describeParseProblem(problem)}`);
      continue;
    }
    wf.rewritten = text;
    wf.outcome.status = 'changed';
  }

  // Stage: the codemod's forwarded-context comments whose helper the port left not reading the context
  if (v1.length > 0) {
    const texts = new Map([...work.values()].map((wf) => [wf.abs, { before: wf.working, after: wf.output }]));
    for (const [abs, text] of settleForwardedContextComments(texts)) {
      const wf = work.get(relOf(abs));
      if (wf?.outcome.status === 'changed') wf.rewritten = text;
    }
  }

  // Stage: the helper files each package's changed files import, and the helpers those import.
  const helpers: HelperOutcome[] = [];
  const helperWrites: HelperWrite<WorkFile>[] = [];
  const helperPackages = new Map<string, Set<string>>();
  const changedByPackage = groupBy([...considered].filter((wf) => wf.outcome.status === 'changed'), (wf) => layout.packageRootOf(wf.abs));
  for (const [pkg, changed] of changedByPackage) {
    const planner = packageHelpers.get(pkg);
    if (!planner) continue;
    const plan = planPackageHelpers(planner, changed, { cwd, render: deps.helperTemplate });
    helpers.push(...plan.outcomes);
    helperWrites.push(...plan.writes);
    helperPackages.set(pkg, plan.packages);
    for (const h of plan.unreadable) failHelper(h.outcome, h.importers, h.outcome.error ?? 'unreadable');
  }

  // Stage: write (or diff): the helpers first (a file importing one is kept if it cannot be written), then the sources.
  const writer = new Writer({ force: options.force, write: options.write, beforeSwap: options.beforeSwap });
  for (const h of helperWrites) {
    await betweenFiles();
    if (dryRun) {
      h.outcome.status = 'would-write';
      h.outcome.diff = newFileDiff(h.outcome.file, h.text);
      continue;
    }
    const failure = writer.commit({ target: h.path, bytes: Buffer.from(h.text, 'utf8'), expect: 'absent' });
    if (failure) failHelper(h.outcome, h.importers, failure.kind === 'write-failed' ? failure.message.replace(/^write failed: /, '') : failure.message);
    else h.outcome.status = 'written';
  }
  for (const wf of considered) {
    if (wf.outcome.status !== 'changed') continue;
    const pending = pendingWrite(wf);
    if (typeof pending === 'string') {
      fail(wf, pending);
      continue;
    }
    await betweenFiles();
    if (dryRun) {
      wf.outcome.diff = fileDiff(wf.rel, wf.original, wf.output, wf.source!.encoding);
      continue;
    }
    const failure = writer.commit(pending);
    if (failure) fail(wf, failure.message);
  }

  // a package ported only in part keeps SDK v1 for the files the run did not scan
  const migratedPackages = [...new Set([...work.values()].filter((wf) => wf.outcome.status === 'changed' && wf.outcome.v1Migrated).map((wf) => layout.packageRootOf(wf.abs)))];
  const outside = await v1ImportersOutside(migratedPackages, new Set([...work.values()].map((wf) => wf.abs)), deps.discoverFiles, { cwd, ignore: options.ignore ?? [] });
  const manifests = updateManifests([...work.values()], layout, helperPackages, { dryRun, writer, cwd, relOf, outside });

  const markerReasons: string[] = [];
  for (const wf of considered) {
    if (wf.outcome.status === 'skipped' && wf.source && namesLegacyMethod(wf.source.bytes)) wf.outcome.mayHoldSites = true;
    const finalText = wf.outcome.status === 'changed' ? wf.output : wf.original;
    const open = findMarkers(finalText).filter((m) => !m.acknowledged);
    wf.outcome.markers = open.length;
    markerReasons.push(...open.map((m) => m.reason));
    wf.outcome.codemodMarkers = countCodemodMarkers(finalText);
  }

  const files = [...considered].map((wf) => wf.outcome).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  helpers.sort((a, b) => (a.file < b.file ? -1 : 1));
  const summary = summarize(work.size, files);
  // servers connected to a transport by hand speak 2025-11-25 only: the next steps say how to host them
  const legacyHosts = [...work.values()].flatMap((wf) => legacyTransportsIn(wf.output).map((transport) => ({ file: wf.rel, transport, factory: serverFactoryIn(wf.output) })));
  // what an earlier port left in the tree (a second run writes no helper, but the same configuration holds)
  const { portedFiles, claimStores } = portedRuntimeIn([...work.values()].map((wf) => ({ file: wf.rel, text: wf.output })));
  return {
    tool: 'mrtr-port',
    command: 'port',
    version: 1,
    dryRun,
    options: { codec, roots, claims, skipV1 },
    files,
    helpers,
    manifests,
    summary,
    nextSteps: nextSteps({ dryRun, claims, files, helpers, manifests, summary, legacyHosts, markerReasons, portedFiles, claimStores }),
    ...(swept && (swept.removed.length > 0 || swept.restored.length > 0)
      ? { recovered: { removed: swept.removed.map(relOf), restored: swept.restored.map(relOf) } }
      : {}),
  };
}

/** Without its helper a ported file would not compile: keep every importer as it was. */
function failHelper(outcome: HelperOutcome, importers: readonly WorkFile[], error: string): void {
  outcome.status = 'failed';
  outcome.error = error;
  for (const wf of importers) fail(wf, `helper file ${outcome.file} could not be written: ${error}`);
}

/** The new bytes of a changed file, in the encoding it was read in; or why they cannot be written. */
function pendingWrite(wf: WorkFile): PendingWrite | string {
  const source = wf.source!;
  const bytes = encode(wf.output, source.encoding);
  // a lone surrogate has no encoding (it would be written as U+FFFD): refuse rather than alter
  const back = decode(bytes);
  if (!back.ok || back.text !== wf.output) return `output cannot be written in ${source.encoding.toUpperCase()} without changing it (an unpaired surrogate)`;
  return { target: source.target, bytes, expect: source };
}

/** Stops the run (exit 2) when a file it may rewrite, a source or its package.json, has uncommitted changes. */
function guardUncommitted(cwd: string, sources: readonly string[], layout: PackageLayout): void {
  const manifests = [...new Set(sources.map((f) => join(layout.packageRootOf(f), 'package.json')))].filter((m) => existsSync(m));
  let dirty: string[] | undefined;
  try {
    dirty = uncommittedFiles(cwd, [...sources, ...manifests]);
  } catch (error) {
    throw new PortUsageError(messageOf(error));
  }
  if (!dirty || dirty.length === 0) return;
  const shown = dirty.length > 20 ? [...dirty.slice(0, 20), `… and ${dirty.length - 20} more`] : dirty;
  throw new PortUsageError(
    `uncommitted changes in ${dirty.length === 1 ? 'a file' : `${dirty.length} files`} port would rewrite (commit or stash them first, ` +
      `so the port can be undone with git; --force writes anyway, --dry-run shows the diff):\n${shown.map((f) => `  ${f}`).join('\n')}`,
  );
}

/**
 * The folders where interrupted runs may have left debris next to a file this run may write: the
 * files' folders (and their real folders, behind a symlink) up to the working directory, and their
 * `src/` folders, where the helper may go.
 */
function debrisFolders(cwd: string, files: readonly string[]): Set<string> {
  const dirs = new Set<string>();
  const climb = (start: string) => {
    for (let dir = start; !dirs.has(dir); dir = dirname(dir)) {
      dirs.add(dir);
      dirs.add(join(dir, 'src'));
      if (dir === cwd || !dir.startsWith(cwd + sep)) break;
    }
  };
  for (const file of files) {
    climb(dirname(file));
    const real = realpathOrSelf(file);
    if (real !== file) climb(dirname(real));
  }
  return dirs;
}

function realpathOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * package.json of every package where this run changed a file (wrote it, or would under dry-run): SDK v1
 * swapped for the v2 packages after a migration, the ranges ported code needs raised, the helpers'
 * packages added (manifest.ts). The imports are read from every file of the package as it is after the
 * run, and from the helpers written for it.
 */
function updateManifests(
  files: readonly WorkFile[],
  layout: PackageLayout,
  helperPackages: ReadonlyMap<string, ReadonlySet<string>>,
  io: { dryRun: boolean; writer: Writer; cwd: string; relOf: (abs: string) => string; outside: ReadonlyMap<string, readonly string[]> },
): ManifestOutcome[] {
  const changed = files.filter((wf) => wf.outcome.status === 'changed');
  const migrated = new Set(changed.filter((wf) => wf.outcome.v1Migrated).map((wf) => layout.packageRootOf(wf.abs)));
  const outcomes: ManifestOutcome[] = [];
  const failed = (file: string, error: string): ManifestOutcome => ({ file, status: 'failed', error, added: {}, removed: [], unknown: [], updated: {}, kept: [], notes: [] });
  for (const pkg of [...new Set(changed.map((wf) => layout.packageRootOf(wf.abs)))].sort()) {
    const manifest = join(pkg, 'package.json');
    const imported = new Set<string>();
    const v1CallsLeft: string[] = [];
    const helpers = helperPackages.get(pkg) ?? new Set<string>();
    for (const name of helpers) if (name.startsWith(MCP_SCOPE) || name === ZOD) imported.add(name);
    for (const wf of files) {
      if (layout.packageRootOf(wf.abs) !== pkg) continue;
      if (wf.mayImportPackages) for (const name of importedPackages(wf.output)) imported.add(name);
      if (migrated.has(pkg) && mayCallV1OnlyApis(wf.output) && v1CallsOf(wf).length > 0) v1CallsLeft.push(wf.rel);
    }
    const file = io.relOf(manifest);
    const read = readTextFile(manifest, io.cwd);
    if (read === undefined) continue;
    if (!read.ok) {
      outcomes.push(failed(file, read.reason));
      continue;
    }
    const raw = read.file.text;
    try {
      const v1ImportersOutside = (io.outside.get(pkg) ?? []).map(io.relOf);
      const edit = updateManifest(raw, { imported, migratedV1: migrated.has(pkg), v1CallsLeft, helperPackages: helpers, v1ImportersOutside });
      if (!edit) continue;
      const { added, removed, unknown, updated, kept, notes } = edit;
      const outcome: ManifestOutcome = { file, status: 'would-write', added, removed, unknown, updated, kept, notes };
      if (edit.text === raw) outcome.status = 'unchanged';
      else if (io.dryRun) outcome.diff = fileDiff(file, raw, edit.text);
      else {
        const failure = io.writer.commit({ target: read.file.target, bytes: encode(edit.text, read.file.encoding), expect: read.file });
        if (failure) {
          outcome.status = 'failed';
          outcome.error = failure.message;
        } else outcome.status = 'written';
      }
      outcomes.push(outcome);
    } catch (error) {
      outcomes.push(failed(file, messageOf(error)));
    }
  }
  return outcomes;
}

async function resolveDependencies(partial: Partial<PortDependencies> | undefined): Promise<PortDependencies> {
  const complete = partial && partial.discoverFiles && partial.analyze && partial.transform && partial.helperTemplate;
  if (complete) return partial as PortDependencies;
  return { ...(await loadDefaultDependencies()), ...partial };
}

function skip(wf: WorkFile, reason: string): void {
  wf.outcome.status = 'skipped';
  wf.outcome.reason = reason;
}

function fail(wf: WorkFile, error: string): void {
  wf.rewritten = undefined;
  wf.outcome.status = 'failed';
  wf.outcome.error = error;
  delete wf.outcome.diff;
}

/** The v1-only calls left in a file's output, but for those the migration kept on the repository's own objects (`log.tool(name, fn)`). */
function v1CallsOf(wf: WorkFile): ReturnType<typeof findV1OnlyCalls> {
  const kept = new Map<string, number>();
  for (const c of wf.keptCalls) kept.set(`${c.receiver}.${c.method}`, (kept.get(`${c.receiver}.${c.method}`) ?? 0) + 1);
  return findV1OnlyCalls(wf.output, wf.abs).filter((c) => {
    const key = `${c.receiver}.${c.method}`;
    const left = kept.get(key) ?? 0;
    if (left === 0) return true;
    kept.set(key, left - 1);
    return false;
  });
}

/** The codemod's project type per package, from the package's v1 files (as the codemod infers it). */
function projectTypesByPackage(files: readonly WorkFile[], layout: PackageLayout): Map<string, ProjectType> {
  const out = new Map<string, ProjectType>();
  for (const [pkg, group] of groupBy(files, (wf) => layout.packageRootOf(wf.abs))) {
    out.set(pkg, inferProjectType(group.map((wf) => wf.original)));
  }
  return out;
}

function groupBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

function summarize(scanned: number, files: readonly FileOutcome[]): PortSummary {
  const summary: PortSummary = {
    scanned,
    changed: 0,
    unchanged: 0,
    skipped: 0,
    skippedBy: {},
    failed: 0,
    v1Migrated: 0,
    sites: 0,
    markers: 0,
    codemodMarkers: 0,
  };
  for (const f of files) {
    if (f.status === 'changed') summary.changed++;
    if (f.status === 'failed') summary.failed++;
    if (f.status === 'skipped') {
      summary.skipped++;
      const why = (f.reason ?? 'unknown').split(':')[0];
      summary.skippedBy[why] = (summary.skippedBy[why] ?? 0) + 1;
    }
    if (f.status === 'changed' && f.v1Migrated) summary.v1Migrated++;
    summary.sites += f.sites;
    summary.markers += f.markers;
    summary.codemodMarkers += f.codemodMarkers;
  }
  summary.unchanged = scanned - summary.changed - summary.skipped - summary.failed;
  return summary;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
