/**
 * What the user must do after a `port` run, specific to what the run did: install what package.json now
 * asks for, configure the secrets and the claim store the ported code needs, host the server so it speaks
 * 2026-07-28, and resolve what was left. The text report ends with these; `--format json` carries them as
 * `nextSteps`.
 */
import { REASONS, isReasonId } from '../analyzer/reasons.js';
import type { ClaimStoreKind } from '../runtime/template.js';
import type { FileOutcome, HelperOutcome, ManifestOutcome, NextStep, PortSummary } from './result.js';

/** A file that connects a transport serving only 2025-11-25 (a hand-connected McpServer never speaks 2026-07-28). */
export interface LegacyHost {
  file: string;
  transport: string;
  /** The function that builds the connected server (`const server = createServer()`), when the file shows it. */
  factory?: string;
}

const CLAIMS_FILE_RE = /(^|\/)mrtr-claims(-redis)?\.[cm]?[jt]s$/;
const LEGACY_TRANSPORT_RE = /\bnew\s+((?:Node|WebStandard)?StreamableHTTPServerTransport|SSEServerTransport|StdioServerTransport)\s*\(/g;

/** The transports a source text constructs and connects a server to (`server.connect(new StdioServerTransport())` and the like). */
export function legacyTransportsIn(text: string): string[] {
  if (!text.includes('Transport') || !/\.connect\s*\(/.test(text)) return [];
  return [...new Set([...text.matchAll(LEGACY_TRANSPORT_RE)].map((m) => m[1]))];
}

const FLOW_IMPORT_RE = /(?:from\s*|require\s*\(\s*)['"][^'"]*\/mrtr-flow(?:\.[cm]?[jt]s)?['"]/;

/** The function whose result a source text connects to a transport: `const server = createServer(); server.connect(…)`. */
export function serverFactoryIn(text: string): string | undefined {
  for (const m of text.matchAll(/\b([A-Za-z_$][\w$]*)\.connect\s*\(/g)) {
    const made = new RegExp(`\\b(?:const|let|var)\\s+${m[1].replace(/\$/g, '\\$')}\\s*(?::[^=]+)?=\\s*(?:await\\s+)?([A-Za-z_$][\\w$]*)\\s*\\(`).exec(text);
    if (made && made[1] !== 'new') return made[1];
  }
  return undefined;
}

/**
 * What a tree holds of an earlier port, so a second run gives the same configuration steps: the files
 * that import the flow runtime (ported handlers run in it) and the claim store files next to it.
 */
export function portedRuntimeIn(files: readonly { file: string; text: string }[]): { portedFiles: string[]; claimStores: string[] } {
  return {
    portedFiles: files.filter((f) => FLOW_IMPORT_RE.test(f.text)).map((f) => f.file),
    claimStores: files.filter((f) => CLAIMS_FILE_RE.test(f.file)).map((f) => f.file),
  };
}

export interface RunFacts {
  dryRun: boolean;
  claims: ClaimStoreKind;
  files: readonly FileOutcome[];
  helpers: readonly HelperOutcome[];
  manifests: readonly ManifestOutcome[];
  summary: PortSummary;
  legacyHosts: readonly LegacyHost[];
  /** The reason of every open marker left in the files (absent: unknown, so no marker counts as a review note). */
  markerReasons?: readonly string[];
  /** Files (after the run) that import the flow runtime: ported by this run or an earlier one. */
  portedFiles?: readonly string[];
  /** Claim store files (`mrtr-claims.*`, `mrtr-claims-redis.*`) the tree holds, written by this run or an earlier one. */
  claimStores?: readonly string[];
}

export function nextSteps(run: RunFacts): NextStep[] {
  const steps: NextStep[] = [];
  const add = (id: NextStep['id'], text: string, files?: readonly string[]) => steps.push(files && files.length > 0 ? { id, text, files: [...files] } : { id, text });

  if (run.dryRun && (run.summary.changed > 0 || run.helpers.some((h) => h.status === 'would-write') || run.manifests.some((m) => m.status === 'would-write'))) {
    add('apply', 'Nothing was written (--dry-run): run `npx mrtr-port port` again without --dry-run to apply these changes.');
  }
  const failed = run.files.filter((f) => f.status === 'failed').map((f) => f.file);
  const helperFailed = [...run.helpers, ...run.manifests].filter((h) => h.status === 'failed').map((h) => h.file);
  const broken = [...failed, ...helperFailed];
  if (broken.length > 0) {
    add('fix-failures', `${count(broken.length, 'file')} failed and ${broken.length === 1 ? 'was' : 'were'} left as ${broken.length === 1 ? 'it was' : 'they were'}: fix the cause shown on each FAILED line, then run port again.`, broken);
  }
  const differs = run.helpers.filter((h) => h.status === 'differs').map((h) => h.file);
  if (differs.length > 0) {
    add('check-helpers', `${list(differs)} already existed with other content and ${differs.length === 1 ? 'was' : 'were'} not replaced: make sure ${differs.length === 1 ? 'it exports' : 'they export'} what the ported files import (move ${differs.length === 1 ? 'it' : 'them'} away and run port again to get the current version).`, differs);
  }

  const manifests = run.manifests.filter((m) => m.status !== 'failed' && (Object.keys(m.added).length + m.removed.length + Object.keys(m.updated ?? {}).length > 0));
  if (manifests.length > 0) {
    const dirs = manifests.map((m) => m.file.replace(/(^|\/)package\.json$/, '') || '.');
    const where = dirs.length === 1 && dirs[0] === '.' ? '' : ` in ${list(dirs)}`;
    add('install', `Run \`npm install\`${where}${run.dryRun ? ' once the changes are applied' : ''}: the port ${run.dryRun ? 'would change' : 'changed'} ${list(manifests.map((m) => m.file))}.`, manifests.map((m) => m.file));
  }
  const zod3 = run.manifests.filter((m) => (m.notes ?? []).some((n) => n.startsWith('zod ') && n.includes('zod 3')));
  if (zod3.length > 0) add('zod-4', 'Review your own zod code for zod 4 (package.json now asks for ^4.2.0; SDK v2 does not work with zod 3): see zod 4\'s migration guide.', zod3.map((m) => m.file));
  for (const m of run.manifests) {
    for (const kept of m.kept ?? []) add('v1-left', `${m.file} keeps ${kept.name}: ${kept.reason}.`, [m.file]);
    if (m.unknown.length > 0) add('add-packages', `Add ${list(m.unknown)} to ${m.file} by hand: the ported code imports ${m.unknown.length === 1 ? 'it' : 'them'}, and mrtr-port knows no version that works with it.`, [m.file]);
  }

  const helped = run.helpers.filter((h) => h.status !== 'failed');
  // a second run writes no helper: the tree's ported files and claim store still need the configuration
  if (helped.length > 0 || (run.portedFiles?.length ?? 0) > 0) {
    add('state-keys', 'Set MRTR_STATE_KEYS to one secret of at least 32 bytes, the same on every replica (make one with `openssl rand -base64 48`): the ported handlers seal requestState with it, and in production the server refuses to start without it.');
    // the flow claims each final round in the claim store the port writes next to it
    const stores = [...helped.map((h) => h.file), ...(run.claimStores ?? [])].filter((f) => CLAIMS_FILE_RE.test(f));
    const claims = stores.length > 0;
    if (claims && (run.claims === 'redis' || stores.some((f) => /-redis\.[cm]?[jt]s$/.test(f)))) {
      add('claims', 'Set MRTR_CLAIMS_REDIS_URL to the same Redis on every replica (`redis://host:6379`; `appendonly yes` with `appendfsync always`, so no acknowledged claim is lost): a replayed final round then completes once across the fleet. In production the server refuses to start without it.');
    } else if (claims) {
      add('claims', 'Claims are kept in each process\'s memory: right for one replica. With more than one, a replayed final round can complete once per replica: port with `--claims redis` and set MRTR_CLAIMS_REDIS_URL to the same Redis on every replica.');
    }
    const hosts = groupTransports(run.legacyHosts);
    if (hosts.length > 0) {
      add(
        'host-2026',
        `Host the server so it speaks 2026-07-28: ${hosts.join('; ')} — a server connected to a transport by hand speaks 2025-11-25 only, where ported handlers run on the SDK's legacy shim. ${serveAdvice(run.legacyHosts)}`,
        [...new Set(run.legacyHosts.map((h) => h.file))],
      );
    }
  }

  const markers = run.files.filter((f) => f.markers > 0).map((f) => f.file);
  if (run.summary.markers > 0) {
    // a marker on a ported site (capability fallback, roots from configuration) asks for a review, not a port
    const unported = run.markerReasons === undefined ? run.summary.markers : run.markerReasons.filter((r) => !isReviewNote(r)).length;
    const why =
      unported === 0
        ? 'the sites are ported; each marker asks you to confirm what the port decided, then delete it'
        : unported === run.summary.markers
          ? 'those sites still send server→client requests, which 2026-07-28 clients do not answer'
          : `${unported} of them mark sites that still send server→client requests, which 2026-07-28 clients do not answer; the others ask you to confirm what the port decided`;
    add('markers', `${unported === 0 ? 'Review' : 'Resolve'} ${count(run.summary.markers, 'marker')} in ${count(markers.length, 'file')}: \`npx mrtr-port check\` lists each with what to do (${why}).`, markers);
  }
  const codemod = run.files.filter((f) => f.codemodMarkers > 0).map((f) => f.file);
  if (run.summary.codemodMarkers > 0) {
    add('codemod-markers', `Resolve ${count(run.summary.codemodMarkers, '@mcp-codemod-error comment')} the SDK v1 migration left in ${count(codemod.length, 'file')} (search for @mcp-codemod-error).`, codemod);
  }
  return steps;
}

/** A marker the port leaves on a site it did port (the reason's portability is `auto`). */
function isReviewNote(reason: string): boolean {
  return isReasonId(reason) && REASONS[reason].portability === 'auto';
}

function groupTransports(hosts: readonly LegacyHost[]): string[] {
  const byFile = new Map<string, { transports: string[]; factory?: string }>();
  for (const h of hosts) {
    const known = byFile.get(h.file) ?? { transports: [], factory: h.factory };
    byFile.set(h.file, { transports: [...known.transports, h.transport], factory: known.factory ?? h.factory });
  }
  return [...byFile].map(([file, { transports, factory }]) => `${file} connects ${list(transports)}${factory ? ` to the server \`${factory}()\` builds` : ''}`);
}

/** How to serve it: with the function that builds the server when the files show one, else after writing one. */
function serveAdvice(hosts: readonly LegacyHost[]): string {
  const factories = [...new Set(hosts.map((h) => h.factory).filter((f): f is string => f !== undefined))];
  const serve = (f: string): string => `\`createMcpHandler(() => ${f}())\` (HTTP, a fresh server per request, from @modelcontextprotocol/server) or \`serveStdio(() => ${f}())\` (from @modelcontextprotocol/server/stdio)`;
  if (factories.length > 0) return `Serve it with ${serve(factories[0])}${factories.length > 1 ? ` (likewise with ${list(factories.slice(1).map((f) => `\`${f}()\``))})` : ''}.`;
  return `Move the code that builds the server (\`new McpServer(…)\` and its registrations) into a function, say \`buildServer\`, and serve it with ${serve('buildServer')}: each request gets a fresh server.`;
}

function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
