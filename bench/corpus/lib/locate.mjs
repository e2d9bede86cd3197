// Where a labelled site went after `port`: still there (kept, with or without a marker on it) or
// rewritten (the legacy member call is gone). Lines are aligned with a line diff; inside a changed
// hunk the legacy calls of the old and new text are aligned by name (LCS), so a hunk holding two
// asks of which one was ported is told apart.
import { diffArrays } from 'diff';

// A legacy member access (`.elicitInput`, `.sendRequest(`…), a bare call of a name the runtime never
// writes (a destructured `sendRequest(…)`), or the URL-elicitation throw. The runtime's own calls
// (`elicit(…)`, `sample(…)`, `listRoots()`, `request(…)`) never match: `listRoots`, `request` and `send`
// count only as members.
const LEGACY = /\.\s*(elicitInput|createMessage|requestSampling|listRoots|sendRequest)\b|\.\s*(request|send)\s*(?:<[^>]*>)?\s*\(|\bnew\s+(UrlElicitationRequiredError)\b|(?<![\w.$])(elicitInput|createMessage|requestSampling|sendRequest)\s*\(/g;
const MARKER = /@mrtr-port-todo\(([\w-]+)\)/;
// How many lines from a call's first line its method may be named (as `--verify` reads labels).
const CALL_SPAN = 10;
// How far above a kept call its marker may sit (the marker goes above the whole statement).
const MARKER_REACH = 25;

const CLASS = { elicitInput: 'elicitInput', createMessage: 'createMessage', requestSampling: 'requestSampling', listRoots: 'listRoots', sendRequest: 'raw', request: 'raw', send: 'raw', UrlElicitationRequiredError: 'url' };
const FORM_CLASS = { ...CLASS, 'url-elicitation-error': 'url' };

// A member read by `typeof` (`Parameters<typeof server.createMessage>[0]` in a cast the port keeps, a
// `typeof x.elicitInput` probe) names the method without calling it.
const TYPEOF_BEFORE = /\btypeof\s+[\w$.]*$/;

/** Legacy occurrences in `lines` (0-based line index, class). */
function occurrences(lines, from, to) {
  const out = [];
  for (let i = from; i < to; i++) {
    for (const m of lines[i].matchAll(LEGACY)) {
      if (TYPEOF_BEFORE.test(lines[i].slice(0, m.index))) continue;
      out.push({ line: i, cls: CLASS[m[1] ?? m[2] ?? m[3] ?? m[4]] });
    }
  }
  return out;
}

/** Longest common subsequence of two class sequences: pairs of matched indexes. */
function alignByName(a, b) {
  const n = a.length;
  const m = b.length;
  const t = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) t[i][j] = a[i].cls === b[j].cls ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
  const pairs = new Map();
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i].cls === b[j].cls) pairs.set(i++, j++);
    else if (t[i + 1][j] >= t[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}

/** Common and changed regions of two line arrays: [{ common, oFrom, oTo, nFrom, nTo }]. */
function regions(oldLines, newLines) {
  const out = [];
  let o = 0;
  let n = 0;
  for (const part of diffArrays(oldLines, newLines)) {
    const len = part.value.length;
    if (!part.added && !part.removed) {
      out.push({ common: true, oFrom: o, oTo: o + len, nFrom: n, nTo: n + len });
      o += len;
      n += len;
    } else {
      const last = out.at(-1);
      const hunk = last && !last.common ? last : (out.push({ common: false, oFrom: o, oTo: o, nFrom: n, nTo: n }), out.at(-1));
      if (part.removed) o = hunk.oTo = o + len;
      else n = hunk.nTo = n + len;
    }
  }
  return out;
}

/**
 * For each site ({ line, form }) of one file: { status: 'ported'|'marked'|'kept'|'unresolved',
 * newLine (1-based, null when ported), marker }. `unresolved`: no legacy token on or next to the labelled line to follow
 * (an `alias` site follows its own callee instead: `fn(` of `await fn(params)`).
 */
export function locateSites(oldText, newText, sites) {
  const oldLines = oldText.split('\n');
  const newLines = newText === oldText ? oldLines : newText.split('\n');
  const regs = newText === oldText ? [{ common: true, oFrom: 0, oTo: oldLines.length, nFrom: 0, nTo: oldLines.length }] : regions(oldLines, newLines);
  const placed = sites.map((site) => placeOne(site, oldLines, newLines, regs));
  // Each marker belongs to the nearest kept site at or below it.
  const kept = placed.filter((p) => p.status === 'kept').sort((a, b) => a.newLine - b.newLine);
  for (let i = 0; i < newLines.length; i++) {
    const m = MARKER.exec(newLines[i]);
    if (!m) continue;
    const owner = kept.find((p) => p.newLine >= i);
    if (owner && owner.newLine - i <= MARKER_REACH && !owner.marker) {
      owner.marker = m[1];
      owner.status = 'marked';
    }
  }
  return placed.map((p) => ({ ...p, newLine: p.newLine === null ? null : p.newLine + 1 }));
}

function placeOne(site, oldLines, newLines, regs) {
  const at = site.line - 1;
  const reg = regs.find((r) => at >= r.oFrom && at < r.oTo) ?? regs.at(-1);
  const want = FORM_CLASS[site.form] ?? null;
  if (reg.common) {
    // The line is unchanged; the call on it is still there unless the label pointed at no call.
    return { status: 'kept', newLine: reg.nFrom + (at - reg.oFrom), marker: null };
  }
  const oldOcc = occurrences(oldLines, reg.oFrom, reg.oTo);
  const newOcc = occurrences(newLines, reg.nFrom, reg.nTo);
  const mine = oldOcc.findIndex((o) => o.line === at && (!want || o.cls === want));
  const close = mine >= 0 ? mine : oldOcc.findIndex((o) => Math.abs(o.line - at) <= 1 && (!want || o.cls === want));
  // a call labelled where it starts, its method named further down (`await (\n  this.server as { … }\n).request(`)
  const near = close >= 0 || !want ? close : oldOcc.findIndex((o) => o.line > at && o.line - at < CALL_SPAN && o.cls === want);
  if (near < 0) return site.form === 'alias' ? placeAlias(oldLines[at], at, oldLines, newLines, reg) : { status: 'unresolved', newLine: reg.nFrom, marker: null };
  return follow(oldOcc, newOcc, near);
}

/** Kept at its new line when the aligned legacy occurrence is still there, else ported. */
function follow(oldOcc, newOcc, near) {
  const pairs = alignByName(oldOcc, newOcc);
  if (!pairs.has(near)) return { status: 'ported', newLine: null, marker: null };
  return { status: 'kept', newLine: newOcc[pairs.get(near)].line, marker: null };
}

// The callee of a call through a variable holding the ask (`form: "alias"`): `await fn(…)`,
// `yield* client["sampling/createMessage"](…)`, `fn.call(server, …)`. The awaited or yielded call
// is preferred; otherwise the line's first call.
const AWAITED_CALLEE = /(?:\bawait|\byield\s*\*?)\s+([\w$][\w$.]*(?:\[\s*(['"`])[^'"`]*\2\s*\])?)\s*(?:\.\s*(?:call|apply))?\s*\(/;
const ANY_CALLEE = /(?<![\w$.])((?!(?:if|for|while|switch|return|function|catch|typeof|await|new)\b)[\w$][\w$.]*(?:\[\s*(['"`])[^'"`]*\2\s*\])?)\s*(?:\.\s*(?:call|apply))?\s*\(/;
const escapeRe = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An alias site has no legacy name to follow: follow its own callee instead. Still called in the
 * new hunk (aligned by order) = kept; gone = ported. No call on the line = unresolved.
 */
function placeAlias(line, at, oldLines, newLines, reg) {
  const callee = (AWAITED_CALLEE.exec(line) ?? ANY_CALLEE.exec(line))?.[1];
  if (!callee) return { status: 'unresolved', newLine: reg.nFrom, marker: null };
  const call = new RegExp(`(?<![\\w$.])${escapeRe(callee)}\\s*(?:\\.\\s*(?:call|apply))?\\s*\\(`, 'g');
  const calls = (lines, from, to) => {
    const out = [];
    for (let i = from; i < to; i++) out.push(...Array.from(lines[i].matchAll(call), () => ({ line: i, cls: callee })));
    return out;
  };
  const oldOcc = calls(oldLines, reg.oFrom, reg.oTo);
  const mine = oldOcc.findIndex((o) => o.line === at);
  if (mine < 0) return { status: 'unresolved', newLine: reg.nFrom, marker: null };
  return follow(oldOcc, calls(newLines, reg.nFrom, reg.nTo), mine);
}

