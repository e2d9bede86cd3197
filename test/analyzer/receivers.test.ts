import { join, resolve } from 'node:path';
import ts from '../../src/typescript.cjs';
import { describe, expect, it } from 'vitest';
import { Project } from '../../src/analyzer/project.js';
import { ReceiverResolver } from '../../src/analyzer/receivers.js';

const root = resolve(import.meta.dirname, '../..');
const fixture = join(root, 'fixtures/analyzer/session-registry-object');

/** The receivers of every `.createMessage(…)` call in a file, in order. */
function createMessageReceivers(sf: ts.SourceFile): ts.Expression[] {
  const out: ts.Expression[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      const callee = n.expression;
      if ((ts.isPropertyAccessExpression(callee) || ts.isPropertyAccessChain(callee)) && callee.name.text === 'createMessage') out.push(callee.expression);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('ReceiverResolver (syntax only, no type checker)', () => {
  it("follows `registry.serverFor(id)` into the object of functions it is exported as, through a renaming re-export", () => {
    const files = ['server/registry.ts', 'index.ts', 'tools/summarize.ts'].map((f) => join(fixture, f));
    const project = new Project(fixture, files);
    const tool = project.get(files[2])!;
    const receivers = createMessageReceivers(tool.sf);
    expect(receivers.map((r) => r.getText())).toEqual(['model', 'server']);
    const resolver = new ReceiverResolver(project);
    expect(receivers.map((r) => resolver.role(r, tool))).toEqual(['server', 'server']);
    expect(project.programBuilt()).toBe(false);
  });
});

/** The receivers of every `.<name>(…)` call in a file, in order (optional chains and `!` included). */
function receiversOf(sf: ts.SourceFile, name: string): ts.Expression[] {
  const out: ts.Expression[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === name) out.push(n.expression.expression);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('ReceiverResolver: a getter called on a field of this class (syntax only)', () => {
  it('reads `this.safety` by the type written on the field and `this.style` by the class the constructor makes it with', () => {
    const dir = join(root, 'fixtures/analyzer/field-getter-receiver');
    const files = ['checker.ts', 'server.ts'].map((f) => join(dir, f));
    const project = new Project(dir, files);
    const checker = project.get(files[0])!;
    const receivers = [...receiversOf(checker.sf, 'request'), ...receiversOf(checker.sf, 'createMessage')];
    expect(receivers.map((r) => r.getText())).toEqual(['this.safety.getServer()', 'this.style.getServer()!']);
    const resolver = new ReceiverResolver(project);
    expect(receivers.map((r) => resolver.role(r, checker))).toEqual(['server', 'server']);
    expect(project.programBuilt()).toBe(false);
  });
});
