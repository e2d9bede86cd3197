// Scores one repository: the labels against what `analyze` reported (recall, look-alikes, verdict
// agreement) and against what `port` left in the files (ported share, silent sites, broken files).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locateSites } from './locate.mjs';
import { syntaxError } from './parse-check.mjs';

const LINE_SLACK = 1;

const near = (a, b) => Math.abs(a - b) <= LINE_SLACK;
const read = (file) => (existsSync(file) ? readFileSync(file, 'utf8').replace(/^\uFEFF/, '') : null);

/** Labels paired with the analyze site reported for them (same file, line ±1, same kind). */
export function matchAnalyze(labels, reported) {
  const used = new Set();
  const pick = (label, sameKind) =>
    reported.findIndex((s, i) => !used.has(i) && s.file === label.path && near(s.line, label.line) && (!sameKind || s.kind === label.kind));
  const pairs = labels.map((label) => {
    // Exact line first, so two asks on neighbouring lines each get their own report.
    let i = reported.findIndex((s, k) => !used.has(k) && s.file === label.path && s.line === label.line && (label.verdict === 'not-a-site' || s.kind === label.kind));
    if (i < 0) i = pick(label, label.verdict !== 'not-a-site');
    if (i >= 0) used.add(i);
    return { label, site: i >= 0 ? reported[i] : null };
  });
  const unlabelled = reported.filter((_, i) => !used.has(i));
  return { pairs, unlabelled };
}

/** Where each labelled site is after the port, by file. */
function afterPort(labels, origDir, portDir) {
  const byFile = new Map();
  for (const l of labels) byFile.set(l.path, [...(byFile.get(l.path) ?? []), l]);
  const out = new Map();
  for (const [file, ls] of byFile) {
    const before = read(join(origDir, file));
    const after = read(join(portDir, file));
    if (before === null) {
      for (const l of ls) out.set(l.id, { status: 'missing-file', newLine: null, marker: null });
      continue;
    }
    const placed = locateSites(before, after ?? before, ls);
    ls.forEach((l, k) => out.set(l.id, placed[k]));
  }
  return out;
}

/** Files the port failed on, or wrote in a shape that no longer parses. */
function brokenFiles(portReport, origDir, portDir) {
  const broken = [];
  for (const f of portReport?.files ?? []) {
    if (f.status === 'failed') broken.push({ file: f.file, error: `port failed: ${f.error ?? 'no reason given'}` });
    if (f.status !== 'changed') continue;
    const after = read(join(portDir, f.file));
    if (after === null) continue;
    const err = syntaxError(f.file, after);
    if (err && !syntaxError(f.file, read(join(origDir, f.file)) ?? '')) broken.push({ file: f.file, error: `does not parse after port: ${err}` });
  }
  for (const h of portReport?.helpers ?? []) {
    if (h.status === 'failed') broken.push({ file: h.file, error: `helper failed: ${h.error ?? ''}` });
  }
  return broken;
}

function typeCheckedFiles(report) {
  const v = report?.files?.typeChecked ?? report?.stats?.typeChecked ?? report?.typeChecked;
  if (v === undefined) return null;
  return Array.isArray(v) ? v.length : Number(v);
}

/** All figures for one repository run. */
export function scoreRepo(repo, run) {
  const sites = repo.sites.filter((s) => s.verdict !== 'not-a-site');
  const lookalikes = repo.sites.filter((s) => s.verdict === 'not-a-site');
  const reported = run.analyze?.json?.sites ?? [];
  const { pairs, unlabelled } = matchAnalyze(repo.sites, reported);
  const byId = new Map(pairs.map((p) => [p.label.id, p.site]));
  const placed = run.port?.json ? afterPort(sites, run.origDir, run.portDir) : new Map();

  const rows = sites.map((label) => {
    const site = byId.get(label.id) ?? null;
    const after = placed.get(label.id) ?? { status: 'not-run', newLine: null, marker: null };
    return { label, site, after, agree: site !== null && site.portability === label.verdict };
  });
  const autoRows = rows.filter((r) => r.label.verdict === 'auto');
  const broken = run.port?.json ? brokenFiles(run.port.json, run.origDir, run.portDir) : [];
  const secondRun = (run.rerun?.json?.files ?? []).filter((f) => f.status === 'changed').map((f) => f.file);

  return {
    repo: repo.tree,
    dev: repo.dev,
    sites: sites.length,
    testSites: sites.filter((s) => s.test).length,
    found: rows.filter((r) => r.site).length,
    agree: rows.filter((r) => r.agree).length,
    lookalikes: lookalikes.length,
    lookalikesReported: pairs.filter((p) => p.label.verdict === 'not-a-site' && p.site).map((p) => p.label.id),
    autoLabelled: autoRows.length,
    ported: autoRows.filter((r) => r.after.status === 'ported').length,
    // Guarded arms are left as they are by design: neither ported nor marked, and not silent.
    silent: rows.filter((r) => r.label.verdict !== 'guarded' && r.after.status === 'kept').map((r) => r.label.id),
    unresolved: rows.filter((r) => r.after.status === 'unresolved').map((r) => r.label.id),
    broken,
    secondRun,
    unlabelled,
    analyzeSeconds: run.analyze?.seconds ?? null,
    portSeconds: run.port?.seconds ?? null,
    rssMiB: Math.max(run.analyze?.rssMiB ?? 0, run.port?.rssMiB ?? 0) || null,
    typeChecked: typeCheckedFiles(run.analyze?.json),
    skipped: run.analyze?.json?.files?.skipped ?? [],
    failure: run.failure ?? null,
    rows,
  };
}
