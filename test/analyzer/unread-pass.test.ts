/**
 * The unread pass (src/analyzer/plan/unread.ts) on locals, CommonJS bindings and `#private` fields, told directly which text the port drops
 * (written `[[…]]` in the source below): what it removes, what it keeps and why. The fixtures
 * (`unread-*` in fixtures/transforms/resumable-handlers) show the same through the whole port.
 */
import { describe, expect, it } from 'vitest';
import ts from '../../src/typescript.cjs';
import { unreadEdits, type UnreadResult } from '../../src/analyzer/plan/unread.js';
import type { Span } from '../../src/analyzer/plan/model.js';

/** The text without its `[[`/`]]` marks, and the marked spans (the port's dropped text). */
function marked(source: string): { text: string; drops: Span[] } {
  const drops: Span[] = [];
  let text = '';
  let open = -1;
  for (let i = 0; i < source.length; i++) {
    if (source.startsWith('[[', i)) (open = text.length), i++;
    else if (source.startsWith(']]', i)) drops.push({ start: open, end: text.length }), i++;
    else text += source[i];
  }
  return { text, drops };
}

/** The source after the unread edits (the drops themselves left in place), and the pass's result. */
function run(source: string, fileName = 'server.ts'): { after: string; result: UnreadResult } {
  const { text, drops } = marked(source);
  const kind = fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const result = unreadEdits(sf, drops, new Set());
  let after = text;
  for (const e of [...result.edits].sort((a, b) => b.start - a.start)) after = after.slice(0, e.start) + e.text + after.slice(e.end);
  return { after, result };
}

/** An exported helper (its callers still pass `ctx`: an unread `ctx` is renamed `_ctx`, not removed). */
const HANDLER = (body: string, param = 'ctx'): string => `import { x } from 'y';\nexport async function tool(${param}: any) {\n${body}\n}\n`;

describe('unread pass: locals', () => {
  it('removes a declarator whose initializer is a property read, and the statement with it', () => {
    const { after, result } = run(HANDLER(`  const server = ctx.server;\n  return await [[server.server.]]ask(x);`));
    // `ctx` was read only by the removed initializer: judged again, it is unread too
    expect(after).toBe(HANDLER(`  return await server.server.ask(x);`, '_ctx'));
    expect(result.keptLocals).toEqual([]);
  });

  it('keeps a declarator whose initializer is a call (its effect runs) and lists it as kept', () => {
    const source = HANDLER(`  const sdk = connect(ctx);\n  return await [[sdk.server.]]ask(x);`);
    const { after, result } = run(source);
    expect(after).toBe(marked(source).text);
    expect(result.keptLocals.map((k) => k.name)).toEqual(['sdk']);
  });

  it('keeps new, await and tagged-template initializers the same way', () => {
    for (const init of ['new Client(ctx)', 'await ctx.open()', 'ctx.list`a`', 'ctx.server ?? make()']) {
      const { result } = run(HANDLER(`  const s = ${init};\n  return await [[s.]]ask(x);`));
      expect(result.keptLocals.map((k) => k.name), init).toEqual(['s']);
    }
  });

  it('removes request options held in a local: an object literal, a conditional, operators of reads and literals', () => {
    for (const init of ['{ signal: ctx.signal, timeout: ctx.t ?? 5 * 60 * 1000 }', 'ctx.t && ctx.t > 0 ? { timeout: ctx.t } : {}', '[ctx.a, `t-${ctx.b}`]', '{ ...ctx.opts, ["k"]: !ctx.x, n: typeof ctx.y }']) {
      const { after, result } = run(HANDLER(`  const opts = ${init};\n  return await [[ctx.]]ask(x, [[opts]]);`));
      expect(after, init).toBe(HANDLER(`  return await ctx.ask(x, opts);`, '_ctx'));
      expect(result.keptLocals, init).toEqual([]);
    }
  });

  it('keeps one whose literal holds an effect: a call, an assignment, ++, a method, a spread array, in', () => {
    for (const init of ['{ t: ctx.t(), s: 1 }', '{ t: (ctx.n = 2) }', '[ctx.n++]', '{ get t() { return 1; } }', '[...ctx.list]', '"k" in ctx', '{ [ctx.key()]: 1 }', 'ctx.t ? ctx.f() : 0']) {
      const { result } = run(HANDLER(`  const opts = ${init};\n  return await [[ctx.]]ask(x, [[opts]]);`));
      expect(result.keptLocals.map((k) => k.name), init).toEqual(['opts']);
    }
  });

  it('removes one element of a pattern while another stays read; the initializer stays', () => {
    const { after } = run(HANDLER(`  const { mcpReq, http } = ctx;\n  return [await [[mcpReq.]]ask(x), http];`));
    expect(after).toBe(HANDLER(`  const { http } = ctx;\n  return [await mcpReq.ask(x), http];`));
  });

  it('removes one declarator of several, keeping the others', () => {
    const { after } = run(HANDLER(`  const a = ctx.a, server = ctx.server, b = ctx.b;\n  return [a, b, await [[server.]]ask(x)];`));
    expect(after).toBe(HANDLER(`  const a = ctx.a, b = ctx.b;\n  return [a, b, await server.ask(x)];`));
  });

  it('leaves a local still read anywhere in its scope, a later round included', () => {
    const source = HANDLER(`  const req = ctx.mcpReq;\n  const r = await [[req.]]ask(x);\n  return [r, req.id];`);
    expect(run(source).after).toBe(marked(source).text);
  });

  it('leaves a name declared twice in the function (a shadow), a using declaration, an exported or declared one', () => {
    for (const source of [
      HANDLER(`  const s = ctx.s;\n  { const s = 1; void s; }\n  return await [[s.]]ask(x);`),
      HANDLER(`  using s = ctx.s;\n  return await [[s.]]ask(x);`),
      `import { x } from 'y';\nexport const low = server.server;\nexport const f = () => [[low.]]ask(x);\n`,
      `import { x } from 'y';\ndeclare const low: any;\nexport const f = () => [[low.]]ask(x);\n`,
    ]) {
      expect(run(source).after, source).toBe(marked(source).text);
    }
  });

  it('judges a module-level local only in a module: a script’s top-level names are globals', () => {
    const script = `const low = server.server;\nfunction f() { return [[low.]]ask(1); }\nf();\n`;
    expect(run(script).after).toBe(marked(script).text);
    const esm = `export {};\nconst low = server.server;\nfunction f() { return [[low.]]ask(1); }\nf();\n`;
    expect(run(esm).after).toBe(`export {};\nfunction f() { return low.ask(1); }\nf();\n`);
  });

  it('leaves a local whose scope does not hold the dropped read (a block local of the same name as a module one)', () => {
    const source = `export {};\nconst low = server.server;\nfunction f(flag: boolean) {\n  if (flag) { const low = 2; console.log(low); }\n  return [[low.]]ask(1);\n}\nf(true);\n`;
    // the dropped `low` is the module's; the block's `low` is still read: neither is removed by mistake
    const { after } = run(source);
    expect(after).toContain('const low = 2;');
  });

  it('removes a chain of locals: the local only the removed initializer read goes too, and then the context', () => {
    const { after } = run(HANDLER(`  const server = ctx.server;\n  const low = server.server;\n  return await [[low.]]ask(x);`));
    expect(after).toBe(HANDLER(`  return await low.ask(x);`, '_ctx'));
  });
});

describe('unread pass: CommonJS bindings', () => {
  it('removes an element of a require destructuring, and a require left with no name whole', () => {
    const source = `const { McpServer, Err } = require('sdk');\nconst { TIMEOUT } = require('./limits');\nmodule.exports = () => [new McpServer(), [[Err]], [[TIMEOUT]]];\n`;
    expect(run(source, 'server.cjs').after).toBe(`const { McpServer } = require('sdk');\nmodule.exports = () => [new McpServer(), Err, TIMEOUT];\n`);
  });

  it('removes `const x = require(…)` and `var x = require(…)` whole when x is read only in dropped text', () => {
    const source = `var sdk = require('sdk');\nconst z = require('zod');\nmodule.exports = () => [z, [[sdk.]]ask()];\n`;
    expect(run(source, 'server.js').after).toBe(`const z = require('zod');\nmodule.exports = () => [z, sdk.ask()];\n`);
  });

  it('keeps a require whose name is still read', () => {
    const source = `const sdk = require('sdk');\nmodule.exports = () => [sdk.version, [[sdk.]]ask()];\n`;
    expect(run(source, 'server.js').after).toBe(marked(source).text);
  });

  it('removes `import x = require(…)` of a TypeScript file, never an exported one or an alias of a namespace', () => {
    const source = `import sdk = require('sdk');\nimport z = require('zod');\nexport const f = () => [z, [[sdk.]]ask()];\n`;
    expect(run(source).after).toBe(`import z = require('zod');\nexport const f = () => [z, sdk.ask()];\n`);
    for (const kept of [
      `export import sdk = require('sdk');\nexport const f = () => [[sdk.]]ask();\n`,
      `namespace N { export const a = 1; }\nimport sdk = N.a;\nexport const f = () => [[sdk]];\n`,
    ]) {
      expect(run(kept).after, kept).toBe(marked(kept).text);
    }
  });
});

describe('unread pass: #private fields', () => {
  const marked_ = (source: string): string[] => run(source).result.privateMembers.map((m) => m.name);

  it('removes a #field read only in dropped text, with its writes, when none of them has an effect', () => {
    const source = `export class A {\n  #sdk: any = null;\n  constructor(s: any) {\n    this.#sdk = s.server;\n    this.ready = true;\n  }\n  ready = false;\n  go() { return [[this.#sdk.]]ask(); }\n}\n`;
    const { after, result } = run(source);
    // `s` was read only by the removed write: judged again, it is renamed (a constructor's callers pass it)
    expect(after).toBe(`export class A {\n  constructor(_s: any) {\n    this.ready = true;\n  }\n  ready = false;\n  go() { return this.#sdk.ask(); }\n}\n`);
    expect(result.privateMembers).toEqual([]);
  });

  it('keeps and marks one whose initializer or a written value may have an effect, or whose write is not a statement of a block', () => {
    for (const [field, write] of [['#sdk = open();', ''], ['#sdk: any;', 'this.#sdk = open(s);'], ['#sdk: any;', 'if (s) this.#sdk = s;']]) {
      const source = `export class A {\n  ${field}\n  constructor(s: any) { ${write} }\n  go() { return [[this.#sdk.]]ask(); }\n}\n`;
      const { after, result } = run(source);
      expect(after, source).toBe(marked(source).text);
      expect(marked_(source), source).toEqual(['#sdk']);
      expect(result.edits, source).toEqual([]);
    }
  });

  it('leaves a #field read anywhere else: a read, a compound write, #x in y', () => {
    for (const use of ['return this.#sdk;', 'this.#sdk += 1;', 'return #sdk in this;', 'return [this.#sdk = 2];']) {
      const source = `export class A {\n  #sdk: any = 1;\n  go() { return [[this.#sdk.]]ask(); }\n  other() { ${use} }\n}\n`;
      expect(marked_(source), use).toEqual([]);
    }
  });

  it('leaves a #method, and a #field a nested class declares again', () => {
    expect(marked_(`export class A {\n  #sdk() { return 1; }\n  go() { return [[this.#sdk().]]ask(); }\n}\n`)).toEqual([]);
    const nested = `export class A {\n  #sdk: any = 1;\n  go() { return [[this.#sdk.]]ask(); }\n  make() { return class { #sdk = 2; read() { return this.#sdk; } }; }\n}\n`;
    expect(marked_(nested)).toEqual([]);
  });
});
