/**
 * Text tests for SDK v1 sources and the official codemod's markers, kept apart from the migration so
 * that finding no v1 file never loads ts-morph and `@modelcontextprotocol/codemod` (they load their own
 * TypeScript: about a second of start-up).
 */
import type { TransformContext } from '@modelcontextprotocol/codemod';
import { MARKERS, SDK_PACKAGES } from '../vocabulary.js';

export type ProjectType = TransformContext['projectType'];

const V1_SPECIFIER_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*|\brequire\s*\(\s*)['"`]@modelcontextprotocol\/sdk(?:\/[^'"`]*)?['"`]/;
const V1_CLIENT_RE = /['"`]@modelcontextprotocol\/sdk\/client(?:\/|['"`])/;
const V1_SERVER_RE = /['"`]@modelcontextprotocol\/sdk\/server(?:\/|['"`])/;

/** Does this text import (or require) SDK v1? A plain text test: v1 files are found before any parse. */
export function isV1Source(text: string): boolean {
  return text.includes(SDK_PACKAGES.v1) && V1_SPECIFIER_RE.test(text);
}

/**
 * The codemod's project type (which v2 package shared types are imported from), inferred like the
 * codemod does when package.json names no v2 package: from v1 client/server subpath imports.
 */
export function inferProjectType(texts: Iterable<string>): ProjectType {
  let client = false;
  let server = false;
  for (const t of texts) {
    client ||= V1_CLIENT_RE.test(t);
    server ||= V1_SERVER_RE.test(t);
    if (client && server) return 'both';
  }
  return server ? 'server' : client ? 'client' : 'unknown';
}

/** `@mcp-codemod-error` comments in a text (left by this migration or an earlier codemod run). */
export function countCodemodMarkers(text: string): number {
  if (!text.includes(MARKERS.sdkCodemod)) return 0;
  return text.match(new RegExp(`/\\*\\s*${MARKERS.sdkCodemod}\\b`, 'g'))?.length ?? 0;
}
