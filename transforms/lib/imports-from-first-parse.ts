/**
 * The imports the ported file needs, computed from the parse the transforms already made instead of
 * parsing their output again (that second Babel parse was most of the transform time).
 *
 * The rewritten file is the original with `edits` spliced in, so its names are: the original's
 * names outside the replaced ranges, plus the names in the edit texts. Only the names an import may
 * add matter (`IMPORTABLE_NAMES`). The result must be byte-identical to `addMissingImports` on the
 * rewritten text; wherever that is not certain this returns a `fallback` reason, and the caller
 * parses the rewritten text as before:
 * - an importable name the original binds in a declaration an edit touches, or uses where an edit
 *   touches the use or its parent node (the edit may change how it counts);
 * - an importable name in an edit text that the original also holds as an identifier and does not
 *   bind (moved user code: any syntax is possible there), or in an edit text whose tokens are unsure, or in a
 *   position outside the few shapes generated code writes (call, member object, `?.[…]`, type after
 *   `:`/`as`/`|`/`&`/`<`);
 * - an edit text containing the word `import` (it could add a binding or an import declaration);
 * - imports to add while an edit touches an import declaration, or (in a file without imports)
 *   touches the first statement or the text before it: the new import would land elsewhere.
 */
import {
  IMPORTABLE_NAMES,
  IMPORTABLE_VALUES,
  importEdits,
  missingNames,
  visitNameUses,
} from '../imports.js';
import { walk, type Node } from './ast.js';
import { tokenize, type CodeToken } from './code-tokens.js';
import type { PortOptions } from './context.js';
import { SourceText, type Edit } from './source-text.js';

export type ImportPlan = { edits: Edit[] } | { fallback: string };

// built on first use: imports.ts and this module import each other through the pipeline
let namePattern: RegExp | undefined;

/** The importable names `text` holds as whole words (in code, comments or strings alike). */
function namesIn(text: string): Set<string> {
  namePattern ??= new RegExp([...IMPORTABLE_NAMES].join('|'), 'g');
  const found = new Set<string>();
  for (const m of text.matchAll(namePattern)) {
    const end = m.index + m[0].length;
    if (!isNameChar(text[m.index - 1]) && !isNameChar(text[end])) found.add(m[0]);
  }
  return found;
}

function isNameChar(c: string | undefined): boolean {
  return c !== undefined && (/[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) >= 0x80);
}

const DECLARING_WORDS = new Set(['const', 'let', 'var', 'function', 'class', 'interface', 'type', 'enum', 'import', 'export', 'namespace', 'module', 'declare']);
const PUNCT_BEFORE_CALL = new Set(['(', '=', ':', '?', '!', '...', '&&', '||', '??', '=>', '[', ';', '}']);
const WORDS_BEFORE_CALL = new Set(['return', 'await', 'throw', 'yield', 'void', 'typeof', 'new', 'case', 'in', 'of', 'else', 'do', 'delete']);
const BEFORE_TYPE = new Set([':', 'as', 'satisfies', '|', '&', '<']);

const replaces = (e: Edit, n: Node): boolean => e.end > e.start && e.start <= n.start && n.end <= e.end;
const touches = (e: Edit, n: Node): boolean => e.start <= n.end && e.end >= n.start;
const entersInterior = (e: Edit, n: Node): boolean => (e.start < n.end && e.end > n.start) || (e.start === e.end && e.start > n.start && e.start < n.end);

/**
 * @param src the original text (the one `program` was parsed from)
 * @param rewritten `src.apply(edits)`: its style (quotes, semicolons, line ends) is the one the old path used
 */
export function planImportsFromFirstParse(src: SourceText, program: Node, edits: readonly Edit[], rewritten: string, options: PortOptions): ImportPlan {
  const values = new Set<string>();
  const types = new Set<string>();
  const bound = new Set<string>();
  const uncertainUses = new Set<string>();
  let boundUncertain: string | undefined;
  // most legacy files hold no importable name at all: then the original has no use or binding to find
  // (an identifier may spell its name with \u escapes: then the text cannot tell, so look at every one)
  const escapes = src.text.includes('\\u');
  const inOriginalText = escapes ? IMPORTABLE_NAMES : namesIn(src.text);
  if (inOriginalText.size > 0) visitNameUses(program, (name, kind, node, context) => {
    if (!IMPORTABLE_NAMES.has(name)) return;
    if (edits.some((e) => replaces(e, node))) return;
    if (kind === 'bound') {
      if (edits.some((e) => touches(e, context))) boundUncertain ??= name;
      else bound.add(name);
    } else if (edits.some((e) => touches(e, node) || entersInterior(e, context))) uncertainUses.add(name);
    else (kind === 'value' ? values : types).add(name);
  });
  if (boundUncertain) return { fallback: `an edit touches the declaration of ${boundUncertain}` };
  for (const name of uncertainUses) if (!bound.has(name)) return { fallback: `an edit touches a use of ${name}` };

  const inOriginal = identifiersIn(program, inOriginalText);
  for (const edit of edits) {
    if (/\bimport\b/.test(edit.text)) return { fallback: 'an edit text holds the word import' };
    if (escapes && edit.text.includes('\\u') && [...inOriginal].some((n) => !bound.has(n))) return { fallback: 'an edit text holds a \\u escape' };
    const names = [...namesIn(edit.text)].filter((n) => !bound.has(n));
    if (names.length === 0) continue;
    const moved = names.find((n) => inOriginal.has(n));
    if (moved) return { fallback: `${moved} is an identifier of the original and in an edit text` };
    const { tokens, unsure } = tokenize(edit.text);
    if (unsure) return { fallback: 'an edit text the tokenizer cannot read for certain' };
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t.kind !== 'name' || !IMPORTABLE_NAMES.has(t.value) || bound.has(t.value)) continue;
      const use = classify(tokens, i, () => tokenBefore(src, edits, edit));
      if (!use) return { fallback: `${t.value} in an edit text in a position the scan does not classify` };
      if (use === 'value' && IMPORTABLE_VALUES.has(t.value)) values.add(t.value);
      if (use === 'type' && !IMPORTABLE_VALUES.has(t.value)) types.add(t.value);
    }
  }

  const missing = missingNames({ values, types, bound });
  if (missing.serverValues.length + missing.serverTypes.length + missing.runtimeValues.length + missing.runtimeTypes.length === 0) return { edits: [] };

  const body = program.body as Node[];
  const imports = body.filter((s) => s.type === 'ImportDeclaration');
  if (imports.some((d) => edits.some((e) => touches(e, d)))) return { fallback: 'an edit touches an import declaration' };
  if (imports.length === 0 && edits.length > 0) {
    const first = body[0];
    if (!first || edits.some((e) => e.start <= first.end)) return { fallback: 'no imports, and an edit touches the first statement or what precedes it' };
  }
  return { edits: importEdits(program, src.text, new SourceText(rewritten).style, missing, options) };
}

/** Which of `candidates` (names found in the text) the program holds as identifiers, not only in comments or strings. */
function identifiersIn(program: Node, candidates: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  if (candidates.size === 0) return found;
  walk(program, (n) => {
    if ((n.type === 'Identifier' || n.type === 'JSXIdentifier') && candidates.has(n.name as string)) found.add(n.name as string);
  });
  return found;
}

/** How the name at `tokens[i]` counts: a value use, a type reference, or undefined when unsure. */
function classify(tokens: readonly CodeToken[], i: number, before: () => CodeToken | undefined): 'value' | 'type' | undefined {
  const prev = i > 0 ? tokens[i - 1] : before();
  const next = tokens[i + 1];
  if (!prev || prev.value === '.' || prev.value === '?.' || prev.value === '#' || prev.value === '@') return undefined;
  if (IMPORTABLE_VALUES.has(tokens[i].value)) {
    if (next?.value === '.' || next?.value === '?.') return prev.kind === 'name' && DECLARING_WORDS.has(prev.value) ? undefined : 'value';
    if (next?.value === '(') {
      if (prev.kind === 'punct' && PUNCT_BEFORE_CALL.has(prev.value)) return 'value';
      if (prev.kind === 'name' && WORDS_BEFORE_CALL.has(prev.value)) return 'value';
      return undefined;
    }
    // `x?.[NAME]`: a computed member
    if (next?.value === ']' && prev.value === '[' && tokens[i - 2]?.value === '?.') return 'value';
    return undefined;
  }
  if (next && (next.value === '.' || next.value === '?.' || next.value === '(')) return undefined;
  return BEFORE_TYPE.has(prev.value) ? 'type' : undefined;
}

/** The token just before an edit in the original text, when no other edit sits there and no comment ends there. */
function tokenBefore(src: SourceText, edits: readonly Edit[], edit: Edit): CodeToken | undefined {
  if (edits.some((e) => e !== edit && (e.end === edit.start || e.start === edit.start))) return undefined;
  let at = edit.start - 1;
  while (at >= 0 && /[ \t]/.test(src.text[at])) at--;
  // on an earlier line, the nearest text could be the end of a comment
  if (at < 0 || /\s/.test(src.text[at])) return undefined;
  const c = src.text[at];
  if (c === '/' || c === '`' || c === "'" || c === '"') return undefined;
  if (/[A-Za-z0-9_$]/.test(c)) {
    let start = at;
    while (start > 0 && /[A-Za-z0-9_$]/.test(src.text[start - 1])) start--;
    return { kind: 'name', value: src.text.slice(start, at + 1) };
  }
  return { kind: 'punct', value: c };
}
