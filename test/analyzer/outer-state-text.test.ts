/**
 * The text prefilter of outer-state.ts: the roots a file's text may write, read before its tree is walked
 * for writes. A root it misses is taken as written nowhere, so every kind of write must be seen: an
 * assignment, `++`/`--`, a destructuring (`[a, b] = …`, `({ a, b } = …)`, `({ x: this.y } = …)`) and a
 * `for…of`/`for…in` target the head does not declare.
 */
import { describe, expect, it } from 'vitest';
import ts from '../../src/typescript.cjs';
import { rootsAssignedByText } from '../../src/analyzer/plan/outer-state.js';

function roots(text: string): { all: boolean; names: string[] } {
  const sf = ts.createSourceFile('t.ts', text, ts.ScriptTarget.Latest, true);
  const r = rootsAssignedByText(sf);
  return { all: r.all, names: [...r.names].sort() };
}

describe('rootsAssignedByText', () => {
  it.each([
    ['count++;', ['count']],
    ['--left;', ['left']],
    ['stats.calls += 1;', ['stats']],
    ['seen[user] = true;', ['seen']],
    ['rows[i][j] = 0;', ['rows']],
    ['this.token = t;', ['this']],
    ['[primary, backup] = [backup, primary];', ['backup', 'primary']],
    ['({ token, expires } = await refresh());', ['expires', 'token']],
    ['({ region: this.region } = await load());', ['region', 'this']],
    ['[[a, b], { c = 1 }] = f();', ['a', 'b', 'c']],
    ['for (current of queue) handle(current);', ['current']],
    ['for await (this.cursor of pages) {}', ['cursor', 'this']],
    ['for ([key, value] of entries) {}', ['key', 'value']],
    ['for (k in table) {}', ['k']],
    ['(slot as string) = next;', ['slot']],
    ['audit.push(line);', ['audit']],
    ['state.cache.set(k, v);', ['state']],
    ['seen?.add(id);', ['seen']],
    ['this.queue.splice(0, 1);', ['this']],
    ['due.setHours(0);', ['due']],
    ['class L { n = 0; record(x: string): void { this.n += x.length; } }\nledger.record(line);', ['ledger']],
  ])('%s writes %j', (text, expected) => {
    const r = roots(text);
    expect(r.all).toBe(false);
    for (const name of expected) expect(r.names).toContain(name);
  });

  it.each([
    'const { token, expires } = await refresh();',
    'let [primary, backup] = pair;',
    'var x = 1;',
    'for (const current of queue) handle(current);',
    'for (let i = 0; i < n; i++) {}',
    'if (a === b || c !== d || e <= f || g >= h) run(() => a);',
    'a.map(f); b.includes(x); c.get(k); d.has(k); e.getHours();',
    'class B { describe(): string { return this.f; } }\ng.describe();',
  ])('%s writes no outer root of its own', (text) => {
    const r = roots(text);
    expect(r.all).toBe(false);
    for (const name of ['token', 'expires', 'primary', 'backup', 'x', 'current', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) expect(r.names).not.toContain(name);
  });

  it('gives up on a pattern it cannot delimit: every root then counts as written', () => {
    expect(roots(`${'x'.repeat(5000)} }] = value;`).all).toBe(true);
  });
});
