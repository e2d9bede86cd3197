/**
 * package.json after an SDK v1 migration: the migrated sources import the v2 packages, so the manifest
 * that declared `@modelcontextprotocol/sdk` gets them instead, at the release that has the MRTR API
 * (2.4.0), in the same section; zod is added when migrated code imports it and nothing declares it
 * (v2 needs zod >= 4.2). Formatting (indent, final newline, CRLF) and key order are kept (a sorted
 * section stays sorted).
 */
import { SDK_PACKAGES } from '../vocabulary.js';

/** The v2 packages a ported server may import, with the first version that has the MRTR API. */
export const V2_VERSIONS: Readonly<Record<string, string>> = {
  [SDK_PACKAGES.v2Server]: '^2.4.0',
  [SDK_PACKAGES.v2Client]: '^2.4.0',
  [SDK_PACKAGES.v2Core]: '^2.4.0',
};
/** The zod floor of SDK v2 (the codemod uses the same range). */
export const ZOD_RANGE = '^4.2.0';

const SECTIONS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;
const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]((?:@modelcontextprotocol\/[\w.-]+)|zod)(?:\/[^'"]*)?['"]/g;

/** The npm packages (`@modelcontextprotocol/*` and zod) a source text imports. */
export function importedPackages(text: string): Set<string> {
  const out = new Set<string>();
  if (!text.includes('@modelcontextprotocol/') && !text.includes('zod')) return out;
  for (const m of text.matchAll(IMPORT_RE)) out.add(m[1]);
  return out;
}

export interface ManifestEdit {
  text: string;
  added: Record<string, string>;
  removed: string[];
  /** Imported `@modelcontextprotocol/*` packages this update does not know a version for. */
  unknown: string[];
}

/**
 * The updated package.json text, or undefined when the manifest does not declare SDK v1 (not a v1
 * package: left alone) or nothing would change. Throws on a package.json that is not a JSON object.
 */
export function updateManifest(raw: string, imported: ReadonlySet<string>): ManifestEdit | undefined {
  const json = JSON.parse(raw) as Record<string, unknown>;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('package.json is not a JSON object');
  const sections = SECTIONS.map((name) => [name, json[name]] as const).filter(
    (entry): entry is readonly [(typeof SECTIONS)[number], Record<string, string>] => typeof entry[1] === 'object' && entry[1] !== null,
  );
  const v1Section = sections.find(([, deps]) => SDK_PACKAGES.v1 in deps)?.[0];
  if (!v1Section || (v1Section !== 'dependencies' && v1Section !== 'devDependencies')) return undefined;
  const declared = (name: string) => sections.some(([, deps]) => name in deps);

  const target = json[v1Section] as Record<string, string>;
  const added: Record<string, string> = {};
  const unknown: string[] = [];
  for (const pkg of [...imported].sort()) {
    if (pkg === SDK_PACKAGES.v1 || declared(pkg)) continue;
    const version = pkg === 'zod' ? ZOD_RANGE : V2_VERSIONS[pkg];
    if (version === undefined) {
      unknown.push(pkg);
      continue;
    }
    added[pkg] = version;
  }
  const removed: string[] = imported.has(SDK_PACKAGES.v1) ? [] : [SDK_PACKAGES.v1];
  if (Object.keys(added).length === 0 && removed.length === 0) return undefined;

  const kept = Object.entries(target).filter(([name]) => !removed.includes(name));
  const entries = [...kept, ...Object.entries(added)];
  // keep a sorted section sorted (as npm writes it); otherwise append
  if (isSorted(Object.keys(target))) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  json[v1Section] = Object.fromEntries(entries);
  let text = JSON.stringify(json, null, indentOf(raw));
  if (raw.endsWith('\n')) text += raw.endsWith('\r\n') ? '\r\n' : '\n';
  if (raw.includes('\r\n')) text = text.replace(/\r?\n/g, '\r\n');
  return { text, added, removed, unknown };
}

function isSorted(names: readonly string[]): boolean {
  return names.every((name, i) => i === 0 || names[i - 1] <= name);
}

function indentOf(raw: string): string | number {
  const m = /^[ \t]+(?=")/m.exec(raw);
  return m ? m[0] : 2;
}
