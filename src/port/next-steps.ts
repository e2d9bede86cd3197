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
}

const CLAIMS_FILE_RE = /(^|\/)mrtr-claims(-redis)?\.[cm]?[jt]s$/;
const LEGACY_TRANSPORT_RE = /\bnew\s+((?:Node|WebStandard)?StreamableHTTPServerTransport|SSEServerTransport|StdioServerTransport)\s*\(/g;

/** The transports a source text constructs and connects a server to (`server.connect(new StdioServerTransport())` and the like). */
export function legacyTransportsIn(text: string): string[] {
  if (!text.includes('Transport') || !/\.connect\s*\(/.test(text)) return [];
  return [...new Set([...text.matchAll(LEGACY_TRANSPORT_RE)].map((m) => m[1]))];
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
  if (helped.length > 0) {
    add('state-keys', 'Set MRTR_STATE_KEYS to one secret of at least 32 bytes, the same on every replica (make one with `openssl rand -base64 48`): the ported handlers seal requestState with it, and in production the server refuses to start without it.');
    // the flow claims each final round in the claim store the port writes next to it
    const claims = helped.some((h) => CLAIMS_FILE_RE.test(h.file));
    if (claims && run.claims === 'redis') {
      add('claims', 'Set MRTR_CLAIMS_REDIS_URL to the same Redis on every replica (`redis://host:6379`; `appendonly yes` with `appendfsync always`, so no acknowledged claim is lost): a replayed final round then completes once across the fleet. In production the server refuses to start without it.');
    } else if (claims) {
      add('claims', 'Claims are kept in each process\'s memory: right for one replica. With more than one, a replayed final round can complete once per replica: port with `--claims redis` and set MRTR_CLAIMS_REDIS_URL to the same Redis on every replica.');
    }
    const hosts = groupTransports(run.legacyHosts);
    if (hosts.length > 0) {
      add(
        'host-2026',
        `Host the server so it speaks 2026-07-28: ${hosts.join('; ')} — a server connected to a transport by hand speaks 2025-11-25 only, where ported handlers run on the SDK's legacy shim. Serve it with \`createMcpHandler(() => buildServer())\` (HTTP, from @modelcontextprotocol/server) or \`serveStdio(() => buildServer())\` (from @modelcontextprotocol/server/stdio).`,
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
  const byFile = new Map<string, string[]>();
  for (const h of hosts) byFile.set(h.file, [...(byFile.get(h.file) ?? []), h.transport]);
  return [...byFile].map(([file, transports]) => `${file} connects ${list(transports)}`);
}

function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
