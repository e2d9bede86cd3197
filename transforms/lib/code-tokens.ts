/**
 * A small JS/TS tokenizer for the text of an edit: identifiers, numbers and punctuators, with
 * strings, comments and the raw parts of template literals skipped (`${…}` inside a template is
 * tokenized). It is only as exact as a scan without a grammar can be: a `/` whose meaning
 * (division or regular expression) depends on context it cannot see makes it report `unsure`.
 */

export interface CodeToken {
  kind: 'name' | 'number' | 'string' | 'punct';
  value: string;
}

export interface CodeTokens {
  tokens: CodeToken[];
  /** Set when the scan may have misread part of the text (an ambiguous `/`, an unclosed literal). */
  unsure: boolean;
}

const MULTI_PUNCT = ['...', '?.', '=>', '&&', '||', '??', '===', '!==', '==', '!=', '<=', '>=', '++', '--', '**'];
const REGEX_AFTER_NAME = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await', 'default', 'extends']);

function isNameChar(c: string): boolean {
  return /[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) >= 0x80;
}

export function tokenize(text: string): CodeTokens {
  const tokens: CodeToken[] = [];
  let unsure = false;
  // brace depth of each open `${` (a `}` at that depth resumes the template)
  const templates: number[] = [];
  let braces = 0;
  let i = 0;
  const n = text.length;

  const skipQuoted = (quote: string): void => {
    i++;
    while (i < n && text[i] !== quote) {
      if (text[i] === '\\') i++;
      else if (text[i] === '\n') break;
      i++;
    }
    if (i >= n || text[i] !== quote) unsure = true;
    i++;
  };
  /** Skips template text from `i`; stops after the closing backtick or after a `${`. */
  const skipTemplate = (): void => {
    while (i < n) {
      if (text[i] === '\\') i += 2;
      else if (text[i] === '`') {
        i++;
        tokens.push({ kind: 'string', value: '`' });
        return;
      } else if (text[i] === '$' && text[i + 1] === '{') {
        i += 2;
        templates.push(braces);
        tokens.push({ kind: 'punct', value: '${' });
        return;
      } else i++;
    }
    unsure = true;
  };

  while (i < n) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) {
        unsure = true;
        i = n;
      } else i = close + 2;
    } else if (c === "'" || c === '"') {
      skipQuoted(c);
      tokens.push({ kind: 'string', value: c });
    } else if (c === '`') {
      i++;
      skipTemplate();
    } else if (c === '/') {
      const prev = tokens[tokens.length - 1];
      const division = prev && (prev.kind === 'number' || prev.kind === 'string' || (prev.kind === 'name' && !REGEX_AFTER_NAME.has(prev.value)) || prev.value === ']');
      const regex = prev && ((prev.kind === 'punct' && !['}', ')', ']'].includes(prev.value)) || (prev.kind === 'name' && REGEX_AFTER_NAME.has(prev.value)));
      if (division) {
        tokens.push({ kind: 'punct', value: '/' });
        i++;
      } else if (regex) {
        i++;
        let inClass = false;
        while (i < n && (inClass || text[i] !== '/') && text[i] !== '\n') {
          if (text[i] === '\\') i++;
          else if (text[i] === '[') inClass = true;
          else if (text[i] === ']') inClass = false;
          i++;
        }
        if (text[i] !== '/') unsure = true;
        i++;
        while (i < n && isNameChar(text[i])) i++;
        tokens.push({ kind: 'string', value: '/' });
      } else {
        // after `)` or `}` or at the start: either reading could be right
        unsure = true;
        tokens.push({ kind: 'punct', value: '/' });
        i++;
      }
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < n && (isNameChar(text[j]) || text[j] === '.')) j++;
      tokens.push({ kind: 'number', value: text.slice(i, j) });
      i = j;
    } else if (isNameChar(c)) {
      let j = i + 1;
      while (j < n && isNameChar(text[j])) j++;
      tokens.push({ kind: 'name', value: text.slice(i, j) });
      i = j;
    } else {
      const multi = MULTI_PUNCT.find((p) => text.startsWith(p, i) && !(p === '?.' && /[0-9]/.test(text[i + 2] ?? '')));
      const value = multi ?? c;
      i += value.length;
      if (value === '{') braces++;
      if (value === '}') {
        if (templates.length > 0 && templates[templates.length - 1] === braces) {
          templates.pop();
          tokens.push({ kind: 'punct', value: '}' });
          skipTemplate();
          continue;
        }
        braces--;
      }
      tokens.push({ kind: 'punct', value });
    }
  }
  if (templates.length > 0) unsure = true;
  return { tokens, unsure };
}
