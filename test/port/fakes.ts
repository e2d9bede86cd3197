/**
 * Stand-ins for the analyzer and the transform, so the runner's own stages (rollback, helper, writes,
 * diffs, exit codes) are tested on their own. They are deliberately tiny and literal: a site is a line
 * with `.elicitInput(`, `// manual` makes it manual, and the "port" swaps the call for `askPorted(`.
 * The end-to-end tests in runner-real.test.ts use the real analyzer and transforms.
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { AnalysisReport, Site } from '../../src/analyzer/model.js';
import type { PortDependencies, TransformInput } from '../../src/port/dependencies.js';
import { discoverFiles } from '../../src/port/discover.js';
import { insertMarkers } from '../../src/port/markers.js';

export const FAKE_TEMPLATE = '// the continuation helper (test copy)\nexport const continuation = {};\n';

export function fakeAnalyze(options: { cwd: string; files: readonly string[]; texts?: ReadonlyMap<string, string> }): { report: AnalysisReport } {
  const sites: Site[] = [];
  const skipped: AnalysisReport['files']['skipped'] = [];
  for (const abs of options.files) {
    const file = relative(options.cwd, abs).split(sep).join('/');
    const text = options.texts?.get(abs) ?? readFileSync(abs, 'utf8');
    if (text.includes('SYNTAX ERROR')) {
      skipped.push({ file, reason: 'parse-error: Declaration or statement expected. (1:1)' });
      continue;
    }
    text.split(/\r?\n/).forEach((line, i) => {
      const col = line.indexOf('ctx.mcpReq.elicitInput(');
      if (col < 0) return;
      const manual = line.includes('// manual');
      sites.push({
        file, line: i + 1, column: col + 1, kind: 'elicitation', form: 'elicitInput', sdk: 'v2', handler: null, via: [],
        portability: manual ? 'manual' : 'auto', reasons: manual ? ['in-loop'] : [],
      });
    });
  }
  const count = (p: Site['portability']) => sites.filter((s) => s.portability === p).length;
  return {
    report: {
      tool: 'mrtr-port', version: 1, files: { scanned: options.files.length, skipped }, sites,
      summary: { sites: sites.length, auto: count('auto'), manual: count('manual'), unportable: count('unportable'), guarded: count('guarded') },
    },
  };
}

export function fakeTransform(input: TransformInput): string {
  const eol = input.source.includes('\r\n') ? '\r\n' : '\n';
  const lines = input.source.split(/\r?\n/);
  let ported = false;
  for (const site of input.sites ?? []) {
    if (site.portability !== 'auto') continue;
    lines[site.line - 1] = lines[site.line - 1].replace('ctx.mcpReq.elicitInput(', 'askPorted(');
    ported = true;
  }
  const markers = (input.sites ?? [])
    .filter((s) => s.portability === 'manual')
    .map((s) => ({ line: s.line, reason: s.reasons[0], message: 'restructure by hand' }));
  let text = insertMarkers(lines.join(eol), markers);
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
    helperTemplate: () => ({ fileName: 'mrtr-continuation.ts', text: FAKE_TEMPLATE }),
    ...overrides,
  };
}
