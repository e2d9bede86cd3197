/**
 * Stand-ins for the analyzer and the transform, so the runner's own stages (rollback, helper, writes,
 * diffs, exit codes) are tested on their own. They are deliberately tiny and literal: a site is a line
 * with `.elicitInput(`, `// manual` makes it manual, its plan lists the auto ones as asks and the
 * manual ones as markers, and the "port" swaps each planned call for `askPorted(`.
 * The end-to-end tests in runner-real.test.ts use the real analyzer and transforms.
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { AnalysisReport, Site } from '../../src/analyzer/model.js';
import { emptyPlan, type FilePlan } from '../../src/analyzer/plan/model.js';
import type { PortDependencies, TransformInput } from '../../src/port/dependencies.js';
import { discoverFiles } from '../../src/port/discover.js';
import { insertMarkers } from '../../src/port/markers.js';

export const FAKE_TEMPLATE = '// the continuation helper (test copy)\nexport const continuation = {};\n';

export function fakeAnalyze(options: { cwd: string; files: readonly string[]; texts?: ReadonlyMap<string, string> }): { report: AnalysisReport; plans: FilePlan[] } {
  const sites: Site[] = [];
  const plans: FilePlan[] = [];
  const skipped: AnalysisReport['files']['skipped'] = [];
  for (const abs of options.files) {
    const file = relative(options.cwd, abs).split(sep).join('/');
    const text = options.texts?.get(abs) ?? readFileSync(abs, 'utf8');
    if (text.includes('SYNTAX ERROR')) {
      skipped.push({ file, reason: 'parse-error: Declaration or statement expected. (1:1)' });
      continue;
    }
    const plan = emptyPlan(file);
    // plan positions count from the text without its BOM
    const lineStarts = [0];
    for (const m of text.replace(/^\uFEFF/, '').matchAll(/\n/g)) lineStarts.push(m.index + 1);
    text.split(/\r?\n/).forEach((line, i) => {
      const lineStart = lineStarts[i];
      const col = line.indexOf('ctx.mcpReq.elicitInput(');
      if (col < 0) return;
      const manual = line.includes('// manual');
      if (manual) plan.markers.push({ line: i + 1, reason: 'in-loop', message: 'restructure by hand' });
      else plan.asks.push({ start: lineStart + col, end: lineStart + col + 'ctx.mcpReq.elicitInput('.length, runtime: 'elicit' });
      sites.push({
        file, line: i + 1, column: col + 1, kind: 'elicitation', form: 'elicitInput', sdk: 'v2', handler: null, via: [],
        portability: manual ? 'manual' : 'auto', reasons: manual ? ['in-loop'] : [],
      });
    });
    if (plan.asks.length + plan.markers.length > 0) plans.push(plan);
  }
  const count = (p: Site['portability']) => sites.filter((s) => s.portability === p).length;
  return {
    plans,
    report: {
      tool: 'mrtr-port', version: 1, files: { scanned: options.files.length, skipped }, sites,
      summary: { sites: sites.length, auto: count('auto'), manual: count('manual'), unportable: count('unportable'), guarded: count('guarded') },
    },
  };
}

export function fakeTransform(input: TransformInput): string {
  const eol = input.source.includes('\r\n') ? '\r\n' : '\n';
  const body = input.source.replace(/^\uFEFF/, '');
  const bom = input.source.length - body.length;
  let text = input.source;
  // from the last ask back, so earlier positions stay valid
  for (const ask of [...(input.plan?.asks ?? [])].sort((a, b) => b.start - a.start)) {
    if (!body.startsWith('ctx.mcpReq.elicitInput(', ask.start)) throw new Error(`fake transform: no ask at ${ask.start}`);
    text = text.slice(0, bom + ask.start) + 'askPorted(' + text.slice(bom + ask.end);
  }
  const ported = (input.plan?.asks.length ?? 0) > 0;
  text = insertMarkers(text, (input.plan?.markers ?? []).map((m) => ({ line: m.line, reason: m.reason, message: m.message })));
  const importLine = `import { askPorted } from '${input.options.continuationImport}';`;
  if (ported && !text.includes(importLine)) {
    const shebang = /^\uFEFF?(#![^\n]*\n)?/.exec(text)?.[0] ?? '';
    text = shebang + importLine + eol + text.slice(shebang.length);
  }
  return text;
}

export function fakeDependencies(overrides: Partial<PortDependencies> = {}): PortDependencies {
  return {
    discoverFiles: (o) => discoverFiles({ cwd: o.cwd, paths: o.paths, ignore: o.ignore }),
    analyze: fakeAnalyze,
    transform: fakeTransform,
    helperTemplate: () => ({ text: FAKE_TEMPLATE, imports: [] }),
    ...overrides,
  };
}
