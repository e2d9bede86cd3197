import ts from '../../src/typescript.cjs';
import { describe, expect, it } from 'vitest';
import type { Site } from '../../src/analyzer/model.js';
import type { FilePlan } from '../../src/analyzer/plan/model.js';
import { emptyPlan } from '../../src/analyzer/plan/model.js';
import { AutoSiteNotPlannedError, checkAutoSitesPlanned, markUnhandledSites } from '../../src/port/coverage.js';

const site = (line: number, column: number, portability: Site['portability'] = 'manual'): Site => ({
  file: 'a.ts', line, column, kind: 'elicitation', form: 'send', sdk: 'v2', handler: null, via: [], portability,
  reasons: portability === 'manual' ? ['raced'] : portability === 'guarded' ? ['era-guarded'] : [],
});

const BEFORE = [
  'export async function h(ctx: any) {', // 1
  '  const answer =', // 2
  '    await ctx.mcpReq.send({ method: "elicitation/create", params: {} });', // 3
  '  const other = await ctx.mcpReq.elicitInput({ message: "x" });', // 4
  '  return [answer, other];', // 5
  '}',
  '',
].join('\n');

describe('markUnhandledSites', () => {
  it('marks a site the transform left untouched, above the start of its statement', () => {
    const out = markUnhandledSites('a.ts', BEFORE, BEFORE, [site(3, 11)]);
    expect(out.added).toBe(1);
    const lines = out.text.split('\n');
    expect(lines[1]).toMatch(/^ {2}\/\* @mrtr-port-todo\(raced\): The request is raced against a timeout/);
    expect(lines[2]).toBe('  const answer =');
  });

  it('writes one marker per reason of the site', () => {
    const two: Site = { ...site(3, 11), reasons: ['raced', 'task-augmented'] };
    const out = markUnhandledSites('a.ts', BEFORE, BEFORE, [two]);
    expect(out.added).toBe(2);
    expect(out.text.split('\n').slice(1, 3).map((l) => /todo\(([\w-]+)\)/.exec(l)?.[1])).toEqual(['raced', 'task-augmented']);
  });

  it('leaves auto sites to the plan check (never marks one)', () => {
    expect(markUnhandledSites('a.ts', BEFORE, BEFORE, [site(3, 11, 'auto')])).toEqual({ text: BEFORE, added: 0 });
  });

  it('leaves sites that were rewritten, already marked, or guarded', () => {
    const rewritten = BEFORE.replace('  const other = await ctx.mcpReq.elicitInput({ message: "x" });', '  const other = ported();');
    const marked = BEFORE.replace('  const answer =\n', '  /* @mrtr-port-todo(in-loop): x */\n  const answer =\n');
    expect(markUnhandledSites('a.ts', BEFORE, rewritten, [site(4, 23)])).toEqual({ text: rewritten, added: 0 });
    expect(markUnhandledSites('a.ts', BEFORE, marked, [site(3, 11)])).toEqual({ text: marked, added: 0 });
    expect(markUnhandledSites('a.ts', BEFORE, BEFORE, [site(4, 23, 'guarded')])).toEqual({ text: BEFORE, added: 0 });
  });

  it('is idempotent: its own marker counts as handled on the next run', () => {
    const once = markUnhandledSites('a.ts', BEFORE, BEFORE, [site(3, 11), site(4, 23)]);
    expect(once.added).toBe(2);
    const again = markUnhandledSites('a.ts', once.text, once.text, [site(4, 11), site(6, 23)]);
    expect(again).toEqual({ text: once.text, added: 0 });
  });

  it('keeps CRLF line endings', () => {
    const crlf = BEFORE.replace(/\n/g, '\r\n');
    const out = markUnhandledSites('a.ts', crlf, crlf, [site(4, 23)]);
    expect(out.text).not.toMatch(/[^\r]\n/);
    expect(out.text.split('\r\n')[3]).toContain('@mrtr-port-todo(raced)');
  });

  it('uses the tree it is given only when it is a parse of exactly the text to check', () => {
    const own = markUnhandledSites('a.ts', BEFORE, BEFORE, [site(3, 11)]);
    const tree = ts.createSourceFile('a.ts', BEFORE, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    expect(markUnhandledSites('a.ts', BEFORE, BEFORE, [site(3, 11)], tree)).toEqual(own);
    // a tree of some other text (here: one statement per line) would put the marker elsewhere: ignored
    const other = ts.createSourceFile('a.ts', BEFORE.replace('  const answer =\n', '  const answer = 1;\n'), ts.ScriptTarget.Latest, true);
    expect(markUnhandledSites('a.ts', BEFORE, BEFORE, [site(3, 11)], other)).toEqual(own);
  });
});

describe('checkAutoSitesPlanned', () => {
  const plan = (starts: number[]): FilePlan => ({ ...emptyPlan('a.ts'), asks: starts.map((start) => ({ start, end: start + 1, runtime: 'elicit' as const })) });
  const at = (line: number, column: number): number => BEFORE.split('\n').slice(0, line - 1).join('\n').length + 1 + column - 1;

  it('passes when every auto site is an ask of the plan (or a retired roots request)', () => {
    expect(() => checkAutoSitesPlanned(BEFORE, [site(3, 11, 'auto'), site(4, 23, 'auto')], plan([at(3, 11), at(4, 23)]))).not.toThrow();
    const roots: FilePlan = { ...emptyPlan('a.ts'), retiredRoots: [{ start: at(4, 23), end: at(4, 24) }] };
    expect(() => checkAutoSitesPlanned(BEFORE, [site(4, 23, 'auto')], roots)).not.toThrow();
  });

  it('fails on an auto site the plan leaves out (auto is a promise), and ignores the others', () => {
    expect(() => checkAutoSitesPlanned(BEFORE, [site(3, 11, 'auto'), site(4, 23, 'auto')], plan([at(3, 11)]))).toThrow(AutoSiteNotPlannedError);
    expect(() => checkAutoSitesPlanned(BEFORE, [site(4, 23, 'auto')], null)).toThrow(/4:23/);
    expect(() => checkAutoSitesPlanned(BEFORE, [site(4, 23, 'manual'), site(3, 11, 'guarded')], null)).not.toThrow();
  });

  it('counts positions without a BOM, as the plan does', () => {
    expect(() => checkAutoSitesPlanned(`\uFEFF${BEFORE}`, [site(3, 11, 'auto')], plan([at(3, 11)]))).not.toThrow();
  });
});
