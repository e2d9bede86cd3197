/**
 * package.json after a port, at least as well as the official codemod does it (its runner's manifest
 * updater, `@modelcontextprotocol/codemod` 2.3.1), and in three ways more:
 * - every v2 package the sources now import is added (`server`, `client`, `core`, `node`, `express`,
 *   `server-legacy`), in the section that held SDK v1, at the release that works with the MRTR API;
 * - `@modelcontextprotocol/server` below 2.4.0 (the first release with `inputRequired`) is raised to
 *   `^2.4.0` wherever ported code or the helpers import it;
 * - a zod range that cannot reach 4.2 (SDK v2's floor; the codemod only warns) is raised to `^4.2.0`, with
 *   a note: the v2 code no longer compiles with zod 3;
 * - SDK v1 goes only when no file of the package imports it (scanned or not) and no file still calls an API v2 removed (`server.tool(…)`);
 *   otherwise it stays, and the report says which files keep it.
 * Formatting (indent, final newline, CRLF) and key order are kept (a sorted section stays sorted).
 */
import { packageRoot } from '../analyzer/modules.js';
import { SDK_PACKAGES } from '../vocabulary.js';

/** The floor of each v2 package ported code may import: what works with the MRTR API of server 2.4.0. */
export const V2_VERSIONS: Readonly<Record<string, string>> = {
  [SDK_PACKAGES.v2Server]: '^2.4.0',
  [SDK_PACKAGES.v2Client]: '^2.4.0',
  [SDK_PACKAGES.v2Core]: '^2.4.0',
  // no 2.4 releases: the latest of each (node 2.1.2 peers on server ^2.4.0)
  '@modelcontextprotocol/node': '^2.1.2',
  '@modelcontextprotocol/express': '^2.0.2',
  '@modelcontextprotocol/server-legacy': '^2.3.1',
};
/**
 * The npm packages the helpers themselves may import, at the exact version this repository tests them
 * with (its own package.json pins the same): `redis` for the Redis claim store (`port --claims redis`).
 */
export const HELPER_PACKAGE_VERSIONS: Readonly<Record<string, string>> = { redis: '6.3.1' };
/**
 * The type packages TypeScript helpers need to type-check (mrtr-flow imports `node:async_hooks`),
 * at the version this repository type-checks them with: added to `devDependencies` when missing, else a
 * ported package without `@types/node` no longer builds (TS2307 on `node:async_hooks`).
 */
export const HELPER_TYPE_PACKAGE_VERSIONS: Readonly<Record<string, string>> = { '@types/node': '20.19.43' };
/** The zod floor of SDK v2 (the codemod uses the same range). */
export const ZOD_RANGE = '^4.2.0';
const ZOD_FLOOR: Version = [4, 2, 0];
const SERVER_FLOOR: Version = [2, 4, 0];
const PRIVATE_PACKAGES = new Set(['@modelcontextprotocol/core-internal']);

const SECTIONS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;
type Section = (typeof SECTIONS)[number];
const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]((?:@modelcontextprotocol\/[\w.-]+)|zod)(?:\/[^'"]*)?['"]/g;

/** The npm packages (`@modelcontextprotocol/*` and zod) a source text imports, by package name. */
export function importedPackages(text: string): Set<string> {
  const out = new Set<string>();
  if (!text.includes('@modelcontextprotocol/') && !text.includes('zod')) return out;
  for (const m of text.matchAll(IMPORT_RE)) out.add(m[1]);
  return out;
}

/** What the package's sources need after the run. */
export interface ManifestNeeds {
  /** Packages its files import after the run (`importedPackages` of each). */
  imported: ReadonlySet<string>;
  /** This run migrated SDK v1 code of the package: the v1 dependency may go. */
  migratedV1: boolean;
  /** Files (relative) that still call an API SDK v2 removed: the v1 dependency stays for them. */
  v1CallsLeft?: readonly string[];
  /** Packages the helpers written for this package import (keys of HELPER_PACKAGE_VERSIONS): added where missing. */
  helperPackages?: ReadonlySet<string>;
  /** Files (relative) of the package that the run did not scan and that import SDK v1: the v1 dependency stays for them. */
  v1ImportersOutside?: readonly string[];
}

export interface ManifestEdit {
  text: string;
  added: Record<string, string>;
  removed: string[];
  /** Ranges raised to what the ported code needs: name → { from, to }. */
  updated: Record<string, { from: string; to: string }>;
  /** Dependencies left in place although the port would have changed them, and why. */
  kept: { name: string; reason: string }[];
  /** Imported `@modelcontextprotocol/*` packages this update does not know a version for. */
  unknown: string[];
  /** What the user should know about a change (e.g. zod 3 → 4). */
  notes: string[];
}

/**
 * The updated package.json text, or undefined when nothing changes and there is nothing to say. A
 * package that never declared SDK v1 is only touched for what ported code needs (server ≥ 2.4, zod ≥ 4.2).
 * Throws on a package.json that is not a JSON object.
 */
export function updateManifest(raw: string, needs: ManifestNeeds): ManifestEdit | undefined {
  const { imported, migratedV1, v1CallsLeft = [], helperPackages = new Set<string>(), v1ImportersOutside = [] } = needs;
  const json = JSON.parse(raw) as Record<string, unknown>;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('package.json is not a JSON object');
  const sections = SECTIONS.filter((name) => isRecord(json[name])).map((name) => [name, json[name] as Record<string, unknown>] as const);
  const sectionOf = (name: string): Section | undefined => sections.find(([, deps]) => Object.hasOwn(deps, name))?.[0];
  const v1Section = sectionOf(SDK_PACKAGES.v1);
  const declaresV1 = v1Section === 'dependencies' || v1Section === 'devDependencies';
  const roots = new Set([...imported].map(packageRoot));
  const usesV2 = [...roots].some((pkg) => pkg !== SDK_PACKAGES.v1 && Object.hasOwn(V2_VERSIONS, pkg));
  const helperMissing = [...helperPackages].filter((pkg) => Object.hasOwn(HELPER_PACKAGE_VERSIONS, pkg) && !sectionOf(pkg)).sort();
  const typesMissing = [...helperPackages].filter((pkg) => Object.hasOwn(HELPER_TYPE_PACKAGE_VERSIONS, pkg) && !sectionOf(pkg)).sort();
  if (!declaresV1 && !usesV2 && helperMissing.length === 0 && typesMissing.length === 0) return undefined;

  const target: Section = declaresV1 ? v1Section : 'dependencies';
  const edit: Omit<ManifestEdit, 'text'> = { added: {}, removed: [], updated: {}, kept: [], unknown: [], notes: [] };

  for (const pkg of [...roots].sort()) {
    if (pkg === SDK_PACKAGES.v1 || pkg === 'zod' || PRIVATE_PACKAGES.has(pkg) || sectionOf(pkg)) continue;
    // a package that was on v2 already only gets what the port's own code needs
    if (!declaresV1 && pkg !== SDK_PACKAGES.v2Server) continue;
    const version = V2_VERSIONS[pkg];
    if (version === undefined) edit.unknown.push(pkg);
    else edit.added[pkg] = version;
  }

  // the helpers run in production: their packages go to `dependencies` whatever section SDK v1 was in
  const runtimeAdded: Record<string, string> = {};
  for (const pkg of helperMissing) runtimeAdded[pkg] = HELPER_PACKAGE_VERSIONS[pkg];
  // their types are only for the build: `devDependencies`
  const typesAdded: Record<string, string> = {};
  for (const pkg of typesMissing) typesAdded[pkg] = HELPER_TYPE_PACKAGE_VERSIONS[pkg];
  if (typesMissing.length > 0) {
    edit.notes.push(`${typesMissing.join(', ')} added to devDependencies: the TypeScript helpers import Node built-ins (node:async_hooks); use the version that matches your Node release if you prefer.`);
  }

  const server = sectionOf(SDK_PACKAGES.v2Server);
  if (server && roots.has(SDK_PACKAGES.v2Server)) {
    const from = String((json[server] as Record<string, unknown>)[SDK_PACKAGES.v2Server]);
    const floor = lowestVersion(from);
    if (floor === undefined) edit.notes.push(`${SDK_PACKAGES.v2Server} "${from}": not a range mrtr-port reads; make sure it installs 2.4.0 or later (the MRTR API).`);
    else if (compare(floor, SERVER_FLOOR) < 0) edit.updated[SDK_PACKAGES.v2Server] = { from, to: V2_VERSIONS[SDK_PACKAGES.v2Server] };
  }

  const zodSection = sectionOf('zod');
  if (zodSection) {
    const from = String((json[zodSection] as Record<string, unknown>).zod);
    const reach = zodReach(from);
    if (reach !== 'ok' && (migratedV1 || roots.has(SDK_PACKAGES.v2Server))) {
      edit.updated.zod = { from, to: ZOD_RANGE };
      edit.notes.push(
        reach === 'v3'
          ? `zod "${from}" → "${ZOD_RANGE}": SDK v2 needs zod >= 4.2 (its schemas are Standard Schema; with zod 3 the migrated registrations do not type-check, and fail at the first tools/list). Review your own zod code against zod 4's migration guide.`
          : `zod "${from}" → "${ZOD_RANGE}": zod 4.0/4.1 predate ~standard.jsonSchema, which SDK v2 registrations need.`,
      );
    }
  } else if (roots.has('zod') && (migratedV1 || declaresV1)) {
    edit.added.zod = ZOD_RANGE;
  }

  if (declaresV1) {
    const importers = roots.has(SDK_PACKAGES.v1);
    const outside = v1ImportersOutside.length;
    if (!importers && outside === 0 && v1CallsLeft.length === 0 && migratedV1) edit.removed.push(SDK_PACKAGES.v1);
    else if (importers) edit.kept.push({ name: SDK_PACKAGES.v1, reason: 'a source file still imports it' });
    else if (outside > 0) {
      const named = v1ImportersOutside.slice(0, 3).join(', ') + (outside > 3 ? ` and ${outside - 3} more` : '');
      edit.kept.push({ name: SDK_PACKAGES.v1, reason: `still imported by files this run did not port (${named}); port them too, then remove it` });
    }
    else if (v1CallsLeft.length > 0) edit.kept.push({ name: SDK_PACKAGES.v1, reason: `still called as v1 API (server.tool/prompt/resource) in ${v1CallsLeft.join(', ')}; migrate those calls, then remove it` });
  }

  edit.added = { ...edit.added, ...runtimeAdded, ...typesAdded };
  const changes = Object.keys(edit.added).length + edit.removed.length + Object.keys(edit.updated).length;
  if (changes === 0 && edit.kept.length === 0 && edit.unknown.length === 0 && edit.notes.length === 0) return undefined;
  if (changes === 0) return { ...edit, text: raw };

  for (const [name, { to }] of Object.entries(edit.updated)) (json[sectionOf(name)!] as Record<string, unknown>)[name] = to;
  const additions = new Map<Section, [string, string][]>([[target, []]]);
  for (const [name, range] of Object.entries(edit.added)) {
    const section = Object.hasOwn(runtimeAdded, name) ? 'dependencies' : Object.hasOwn(typesAdded, name) ? 'devDependencies' : target;
    additions.set(section, [...(additions.get(section) ?? []), [name, range]]);
  }
  for (const [section, added] of additions) {
    if (added.length === 0 && !isRecord(json[section])) continue;
    const existing = isRecord(json[section]) ? (json[section] as Record<string, unknown>) : {};
    const kept = Object.entries(existing).filter(([name]) => !edit.removed.includes(name));
    const entries = [...kept, ...added];
    // keep a sorted section sorted (as npm writes it); otherwise append
    if (isSorted(Object.keys(existing))) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    json[section] = Object.fromEntries(entries);
  }
  let text = JSON.stringify(json, null, indentOf(raw));
  if (raw.endsWith('\n')) text += raw.endsWith('\r\n') ? '\r\n' : '\n';
  if (raw.includes('\r\n')) text = text.replace(/\r?\n/g, '\r\n');
  return { ...edit, text };
}

type Version = [number, number, number];

/** The lowest version a plain range admits (`^2.1.0`, `~2.3`, `>=2.0.0`, `2.4.1`, `2.x`), else undefined. */
function lowestVersion(range: string): Version | undefined {
  const m = /^\s*(?:\^|~|>=|=)?\s*v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?(?:-[\w.]+)?\s*$/.exec(range);
  if (!m) return undefined;
  const part = (s: string | undefined) => (s === undefined || s === 'x' || s === '*' ? 0 : Number(s));
  return [Number(m[1]), part(m[2]), part(m[3])];
}

/**
 * Can a zod range install a version >= 4.2? 'ok' when any `||` alternative can; 'v3' when they all stay
 * below 4; 'v4pre42' when the best is 4.0/4.1. Unreadable ranges (tags, URLs, workspace links) are 'ok'.
 */
function zodReach(range: string): 'ok' | 'v3' | 'v4pre42' {
  const verdicts = range.split('||').map((segment) => highestOf(segment.replace(/^(?:workspace:|npm:)/, '').trim()));
  if (verdicts.some((v) => v === undefined || compare(v, ZOD_FLOOR) >= 0)) return 'ok';
  return verdicts.some((v) => v![0] === 4) ? 'v4pre42' : 'v3';
}

/** The highest version a range segment admits (Infinity for open parts); undefined = no upper limit or unreadable. */
function highestOf(segment: string): Version | undefined {
  if (segment === '' || segment === '*' || segment === 'x' || segment === 'latest') return undefined;
  const num = (s: string | undefined) => (s === undefined || s === 'x' || s === '*' ? Infinity : Number(s));
  const hyphen = /^\S+\s+-\s+v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?/.exec(segment);
  if (hyphen) return [Number(hyphen[1]), num(hyphen[2]), num(hyphen[2]) === Infinity ? Infinity : num(hyphen[3])];
  const below = /<(=?)\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(segment);
  if (below) {
    const v: Version = [Number(below[2]), Number(below[3] ?? 0), Number(below[4] ?? 0)];
    return below[1] === '=' ? v : justBelow(v);
  }
  if (segment.startsWith('>')) return undefined;
  const caret = /^\^\s*v?(\d+)/.exec(segment);
  if (caret) return [Number(caret[1]), Infinity, Infinity];
  const tilde = /^~\s*v?(\d+)(?:\.(\d+))?/.exec(segment);
  if (tilde) return [Number(tilde[1]), num(tilde[2]), Infinity];
  const plain = /^=?\s*v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?/.exec(segment);
  if (plain) return [Number(plain[1]), num(plain[2]), num(plain[2]) === Infinity ? Infinity : num(plain[3])];
  return undefined;
}

/** The highest version below `v` (`<4` admits 3.x; `<4.2.0` admits 4.1.x). */
function justBelow([major, minor, patch]: Version): Version {
  if (patch > 0) return [major, minor, patch - 1];
  if (minor > 0) return [major, minor - 1, Infinity];
  return [major - 1, Infinity, Infinity];
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSorted(names: readonly string[]): boolean {
  return names.every((name, i) => i === 0 || names[i - 1] <= name);
}

function indentOf(raw: string): string | number {
  const m = /^[ \t]+(?=")/m.exec(raw);
  return m ? m[0] : 2;
}
