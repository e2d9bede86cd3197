/**
 * The plain-text prefilter: decides which files are worth parsing at all.
 * Pass 1 parses files that mention a legacy vocabulary name; pass 2 (repeated until nothing new turns
 * up) parses files that mention, as a whole word, a function, class or module that leads to a site.
 */
import { PREFILTER_NAMES } from '../vocabulary.js';

export function mentionsLegacyVocabulary(text: string): boolean {
  for (const name of PREFILTER_NAMES) if (text.includes(name)) return true;
  return false;
}

/** A whole-word matcher for a set of identifiers (undefined when the set is empty). */
export function wordMatcher(names: Iterable<string>): RegExp | undefined {
  const escaped = [...new Set(names)].filter((n) => n.length > 0).map((n) => n.replace(/[$]/g, '\\$'));
  if (escaped.length === 0) return undefined;
  // identifiers may contain `$`, which `\b` does not treat as a word character
  return new RegExp(`(?<![\\w$])(?:${escaped.join('|')})(?![\\w$])`);
}
