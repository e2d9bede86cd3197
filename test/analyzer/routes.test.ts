/**
 * The routes the port's plan is built from carry what the port edits: the registration call with its
 * handler and name arguments (in whichever file it is), and, for each helper crossed, the call that
 * invokes it from the function nearer the handler.
 */
import { join, resolve } from 'node:path';
import { readdirSync } from 'node:fs';
import ts from '../../src/typescript.cjs';
import { describe, expect, it } from 'vitest';
import { findSites, type Found, type HandlerEnd } from '../../src/analyzer/index.js';

const root = resolve(import.meta.dirname, '../..');
const sites = join(root, 'fixtures/sites');

function foundIn(files: string[]): Found[] {
  return findSites({ cwd: root, files }).found;
}

function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f));
}

function handlerEnd(f: Found, i = 0): HandlerEnd {
  const end = f.routes[i]?.end;
  if (end?.type !== 'handler') throw new Error(`site ${f.site.file}:${f.site.line} has no handler route ${i}`);
  return end;
}

const text = (n: ts.Node | undefined): string => (n ? n.getText().replace(/\s+/g, ' ') : '<none>');

describe('route seams for the port plan', () => {
  it('an inline handler: the registration call, its last argument and its name argument', () => {
    const found = foundIn([join(sites, 'wrapped-handlers.ts')]);
    const first = found.find((f) => f.site.line === 15)!;
    const end = handlerEnd(first);
    expect(end.registration).toBeDefined();
    const reg = end.registration!;
    expect(text(reg.call.expression)).toBe('server.registerTool');
    expect(text(reg.nameArg)).toBe("'guarded_delete'");
    expect(text(reg.handlerArg).startsWith('withAuth(async (ctx) =>')).toBe(true);
    expect(reg.file).toBe(first.file);
    // the wrapped function is the handler body; the registration's argument leads to it
    expect(reg.handlerArg.pos <= end.fn.pos && end.fn.end <= reg.handlerArg.end).toBe(true);
  });

  it('a factory call in the registration: handlerArg is the call, fn the function it returns', () => {
    const found = foundIn([join(sites, 'wrapped-handlers.ts')]);
    const end = handlerEnd(found.find((f) => f.site.line === 26)!);
    expect(text(end.registration!.handlerArg)).toBe("makeConfirm('Deploy now?')");
    expect(ts.isArrowFunction(end.fn)).toBe(true);
  });

  it('a low-level setRequestHandler: no name argument', () => {
    const found = foundIn([join(sites, 'low-level-dispatch.ts')]);
    const withHandler = found.filter((f) => f.routes.length > 0);
    expect(withHandler.length).toBeGreaterThan(0);
    for (const f of withHandler) {
      const reg = handlerEnd(f).registration!;
      expect(text(reg.call.expression)).toMatch(/setRequestHandler$/);
      expect(reg.nameArg).toBeUndefined();
      expect(reg.handlerArg).toBe(reg.call.arguments[reg.call.arguments.length - 1]);
    }
  });

  it('across files: the registration is in another file than the handler; each helper has its call', () => {
    const found = foundIn(filesOf(join(sites, 'cross-file')));
    const refund = found.find((f) => f.site.file.endsWith('helpers/confirm.ts') && f.site.line === 10)!;
    const route = refund.routes[0];
    const end = handlerEnd(refund);
    expect(end.registration!.file.rel).toBe('fixtures/sites/cross-file/server.ts');
    expect(text(end.registration!.nameArg)).toBe("'refund'");
    expect(route.via.map((v) => v.name)).toEqual(['confirmRefund']);
    expect(text(route.via[0].call)).toBe('confirmRefund(ctx, amount)');
    // the call sits inside the handler, the function before it on the route
    expect(ts.findAncestor(route.via[0].call, (n) => n === end.fn)).toBe(end.fn);

    const tools = foundIn(filesOf(join(sites, 'tool-modules')));
    const refundTool = handlerEnd(tools.find((f) => f.site.file.endsWith('tools/refund.ts'))!);
    expect(refundTool.name).toBe('refund');
    expect(refundTool.registration!.file.rel).toBe('fixtures/sites/tool-modules/server.ts');
    expect(text(refundTool.registration!.handlerArg)).toBe('tool.handler');
    expect(text(refundTool.registration!.nameArg)).toBe('tool.name');
  });

  it('a delegating handler: the helper is the handler body, the registration still the outer one', () => {
    const found = foundIn([join(sites, 'wrapped-handlers.ts')]);
    const end = handlerEnd(found.find((f) => f.site.line === 42)!);
    expect(text(end.registration!.nameArg)).toBe("'archive'");
    expect(text(end.registration!.handlerArg)).toBe('withAuth(async (ctx) => archiveNow(ctx))');
    expect(ts.isFunctionDeclaration(end.fn) && end.fn.name?.text).toBe('archiveNow');
  });
});
