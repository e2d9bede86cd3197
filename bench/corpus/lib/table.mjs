// The human-readable output: one row per repository, totals for the corpus and the dev trees, then
// the disagreements (label vs analyze vs port) an engineer reads to find what to fix.

const pct = (n, d) => (d === 0 ? '—' : `${Math.round((100 * n) / d)}%`);
const num = (v, digits = 1) => (v === null || v === undefined ? '—' : v.toFixed(digits));

const COLUMNS = [
  ['repo', (s) => s.repo],
  ['sites', (s) => String(s.sites)],
  ['recall', (s) => `${s.found}/${s.sites} ${pct(s.found, s.sites)}`],
  ['look-alikes', (s) => `${s.lookalikesReported.length}/${s.lookalikes}`],
  ['agree', (s) => `${s.agree} ${pct(s.agree, s.sites)}`],
  ['ported', (s) => `${s.ported}/${s.autoLabelled} ${pct(s.ported, s.autoLabelled)}`],
  ['silent', (s) => String(s.silent.length)],
  ['broken', (s) => String(s.broken.length)],
  ['2nd run', (s) => String(s.secondRun.length)],
  ['unlabelled', (s) => String(s.unlabelled.length)],
  ['analyze s', (s) => num(s.analyzeSeconds)],
  ['port s', (s) => num(s.portSeconds)],
  ['RSS MiB', (s) => num(s.rssMiB, 0)],
  ['typed', (s) => (s.typeChecked === null ? '—' : String(s.typeChecked))],
];

/** Sums of the counted figures; times summed, RSS the peak. */
export function total(scores, name) {
  const sum = (f) => scores.reduce((a, s) => a + f(s), 0);
  const list = (f) => scores.flatMap(f);
  return {
    repo: name,
    sites: sum((s) => s.sites),
    found: sum((s) => s.found),
    agree: sum((s) => s.agree),
    lookalikes: sum((s) => s.lookalikes),
    lookalikesReported: list((s) => s.lookalikesReported),
    autoLabelled: sum((s) => s.autoLabelled),
    ported: sum((s) => s.ported),
    silent: list((s) => s.silent),
    broken: list((s) => s.broken),
    secondRun: list((s) => s.secondRun),
    unlabelled: list((s) => s.unlabelled),
    analyzeSeconds: sum((s) => s.analyzeSeconds ?? 0),
    portSeconds: sum((s) => s.portSeconds ?? 0),
    rssMiB: Math.max(0, ...scores.map((s) => s.rssMiB ?? 0)) || null,
    typeChecked: scores.some((s) => s.typeChecked !== null) ? sum((s) => s.typeChecked ?? 0) : null,
  };
}

export function formatTable(rows) {
  const cells = rows.map((r) => (r === null ? null : COLUMNS.map(([, f]) => f(r))));
  const widths = COLUMNS.map(([h], i) => Math.max(h.length, ...cells.filter(Boolean).map((c) => c[i].length)));
  const line = (c) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(COLUMNS.map(([h]) => h)), rule, ...cells.map((c) => (c === null ? rule : line(c)))].join('\n');
}

const verdictOf = (site) => (site ? `${site.portability}${site.reasons?.length ? `(${site.reasons.join('+')})` : ''}` : 'not found');
const handlerOf = (h) => (h ? `${h.kind} ${h.name ?? '?'}` : 'no handler');

/** Per-repository lines for every site where label, analyze and port do not agree. */
export function formatDisagreements(score) {
  const out = [];
  for (const r of score.rows) {
    const { label, site, after } = r;
    const notPorted = label.verdict === 'auto' && after.status !== 'ported';
    const wronglyPorted = label.verdict !== 'auto' && after.status === 'ported';
    if (r.agree && !notPorted && !wronglyPorted && after.status !== 'kept') continue;
    if (r.agree && after.status === 'kept' && label.verdict === 'guarded') continue;
    const port = after.status === 'marked' ? `marked(${after.marker})` : after.status;
    out.push(
      `  ${label.path}:${label.line} ${label.kind}${label.test ? ' [test]' : ''}  label ${label.verdict} (${handlerOf(label.handler)}): ${label.reason}\n` +
        `      analyze ${verdictOf(site)}${site ? ` ← ${handlerOf(site.handler)}` : ''} · port ${port}  [${label.id}]`,
    );
  }
  for (const id of score.lookalikesReported) out.push(`  look-alike reported: ${id}`);
  for (const s of score.unlabelled) out.push(`  unlabelled report: ${s.file}:${s.line} ${s.kind} ${verdictOf(s)} ← ${handlerOf(s.handler)}`);
  for (const b of score.broken) out.push(`  broken: ${b.file}: ${b.error}`);
  for (const f of score.secondRun) out.push(`  changed again on a second port: ${f}`);
  for (const k of score.skipped) out.push(`  skipped by analyze: ${k.file}: ${k.reason}`);
  if (score.failure) out.push(`  tree failed: ${score.failure}`);
  return out.length ? `${score.repo}\n${out.join('\n')}` : null;
}

/** One line per repository for `--typecheck`: tsc errors before/after, new ones, start before/after. */
export function formatTypecheck(score) {
  const t = score.typecheck;
  if (!t) return `  ${score.repo}: not run`;
  if (!t.tried) return `  ${score.repo}: not tried: ${t.why}`;
  const start = t.start ? `start ${t.start.entry}: before ${t.start.before.started ? 'ok' : t.start.before.detail}, after ${t.start.after.started ? 'ok' : t.start.after.detail}` : 'no entry found';
  const fresh = t.newErrors.slice(0, 5).map((e) => `\n      new: ${e}`).join('');
  return `  ${score.repo}: tsc errors ${t.errorsBefore} before, ${t.errorsAfter} after, ${t.newErrors.length} new${t.tscError ? ` (tsc: ${t.tscError})` : ''}; ${start}${fresh}`;
}
