/**
 * The text report of `mrtr-port port`: diffs first under --dry-run, then one line per file that needs a
 * word (changed, skipped, failed, markers), the helper file, and the summary. `--format json` is the
 * `PortResult` object itself (src/port/result.ts).
 */
import type { FileOutcome, HelperOutcome, ManifestOutcome, PortResult } from './result.js';

export function formatPortText(result: PortResult): string {
  const out: string[] = [];
  if (result.dryRun) {
    for (const h of result.helpers) if (h.diff) out.push(h.diff);
    for (const f of result.files) if (f.diff) out.push(f.diff);
    for (const m of result.manifests) if (m.diff) out.push(m.diff);
  }
  const lines = [...recoveredLines(result), ...result.files.map(fileLine).filter((l): l is string => l !== undefined)];
  const helperLines = [...result.helpers.map(helperLine), ...result.manifests.map(manifestLine)];
  if (lines.length + helperLines.length > 0) out.push([...lines, ...helperLines].join('\n') + '\n');
  out.push(summaryLine(result) + '\n');
  if (result.nextSteps.length > 0) out.push(['Next steps:', ...result.nextSteps.map((step, i) => `  ${i + 1}. ${step.text}`)].join('\n') + '\n');
  return out.join('\n');
}

/** What an interrupted earlier run left, and this run cleaned up before reading. */
function recoveredLines(result: PortResult): string[] {
  if (!result.recovered) return [];
  const { removed, restored } = result.recovered;
  return [
    ...restored.map((file) => `${file}: restored to its original bytes (an earlier run was interrupted while writing it)`),
    ...(removed.length > 0 ? [`removed ${plural(removed.length, 'file')} left by an interrupted earlier run`] : []),
  ];
}

function fileLine(f: FileOutcome): string | undefined {
  const notes: string[] = [];
  if (f.sites > 0) notes.push(plural(f.sites, 'site'));
  if (f.markers > 0) notes.push(`${plural(f.markers, 'marker')} left`);
  if (f.codemodMarkers > 0) notes.push(`${plural(f.codemodMarkers, '@mcp-codemod-error comment')} left`);
  const tail = notes.length > 0 ? ` (${notes.join(', ')})` : '';
  switch (f.status) {
    case 'changed':
      return `${f.file}: ${f.v1Migrated ? 'migrated to SDK v2 and ' : ''}changed${tail}`;
    case 'failed':
      return `${f.file}: FAILED, left as it was: ${f.error}`;
    case 'skipped':
      return `${f.file}: skipped: ${f.reason}`;
    case 'unchanged':
      return notes.length > 0 ? `${f.file}: unchanged${tail}` : undefined;
  }
}

function helperLine(h: HelperOutcome): string {
  const who = `imported by ${h.importedBy.join(', ')}`;
  switch (h.status) {
    case 'written':
      return `${h.file}: helper written (${who})`;
    case 'would-write':
      return `${h.file}: helper would be written (${who})`;
    case 'identical':
      return `${h.file}: helper already there (${who})`;
    case 'differs':
      return `${h.file}: exists with other content; NOT overwritten — make sure it exports what the ported code imports (${who})`;
    case 'failed':
      return `${h.file}: helper could not be written: ${h.error}`;
  }
}

function manifestLine(m: ManifestOutcome): string {
  if (m.status === 'failed') return `${m.file}: could not be updated: ${m.error}`;
  const changes = [
    ...Object.entries(m.added).map(([name, range]) => `+${name}@${range}`),
    ...Object.entries(m.updated ?? {}).map(([name, { from, to }]) => `${name} ${from} → ${to}`),
    ...m.removed.map((name) => `-${name}`),
  ].join(' ');
  const said = [
    ...(m.kept ?? []).map((k) => `kept ${k.name}: ${k.reason}`),
    ...(m.unknown.length > 0 ? [`add by hand: ${m.unknown.join(', ')}`] : []),
    ...(m.notes ?? []),
  ];
  const verb = m.status === 'written' ? 'updated' : m.status === 'would-write' ? 'would update' : 'left as it is';
  return `${m.file}: ${verb}${changes ? ` ${changes}` : ''}${said.map((line) => `\n  ${line}`).join('')}`;
}

function summaryLine(result: PortResult): string {
  const s = result.summary;
  const skippedBy = Object.entries(s.skippedBy)
    .map(([why, n]) => `${why}: ${n}`)
    .join(', ');
  const parts = [
    `scanned ${s.scanned}`,
    `${result.dryRun ? 'would change' : 'changed'} ${s.changed}${s.v1Migrated > 0 ? ` (${s.v1Migrated} migrated from SDK v1)` : ''}`,
    `unchanged ${s.unchanged}`,
    `skipped ${s.skipped}${skippedBy ? ` (${skippedBy})` : ''}`,
    `failed ${s.failed}`,
    `markers left ${s.markers}`,
  ];
  if (s.codemodMarkers > 0) parts.push(`@mcp-codemod-error comments left ${s.codemodMarkers}`);
  return (result.dryRun ? 'dry run, nothing written: ' : '') + parts.join(', ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
