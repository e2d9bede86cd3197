// Where a labelled site is after the port (bench/corpus/lib/locate.mjs): ported, marked, kept.
// Run: node --test bench/corpus/test/
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { locateSites } from '../lib/locate.mjs';

const lines = (...l) => l.join('\n');

test('an unchanged file keeps every site, at the same line', () => {
  const text = lines('a', 'const r = await ctx.mcpReq.elicitInput({});', 'b');
  assert.deepEqual(locateSites(text, text, [{ line: 2, form: 'elicitInput' }]), [{ status: 'kept', newLine: 2, marker: null }]);
});

test('a rewritten call is ported; the runtime call that replaces it is not taken for a legacy one', () => {
  const before = lines('x', 'const roots = await server.server.listRoots();', 'y');
  const after = lines('x', 'const roots = await listRoots();', 'y');
  assert.equal(locateSites(before, after, [{ line: 2, form: 'listRoots' }])[0].status, 'ported');
});

test('a method named in a typeof type query the port kept is not a call left behind', () => {
  const before = lines('x', 'const r = await server.createMessage(req as Parameters<typeof server.createMessage>[0]);', 'y');
  const after = lines('x', 'const r = await sample(req as Parameters<typeof server.createMessage>[0]);', 'y');
  assert.equal(locateSites(before, after, [{ line: 2, form: 'createMessage' }])[0].status, 'ported');
});

test('a destructured sendRequest( is followed as a bare call', () => {
  const before = lines('a', 'const r = await sendRequest({ method: "elicitation/create" }, S);', 'b');
  const after = lines('a', 'const r = await request({ method: "elicitation/create" });', 'b');
  assert.equal(locateSites(before, after, [{ line: 2, form: 'sendRequest' }])[0].status, 'ported');
});

test('a marker written above a kept call marks it, at its new line', () => {
  const before = lines('a', 'const s = await server.server.createMessage({});', 'b');
  const after = lines('a', '/* @mrtr-port-todo(raced): decide */', 'const s = await server.server.createMessage({});', 'b');
  assert.deepEqual(locateSites(before, after, [{ line: 2, form: 'createMessage' }]), [{ status: 'marked', newLine: 3, marker: 'raced' }]);
});

test('in one changed hunk, the ported ask and the kept ask are told apart by name', () => {
  const before = lines('x', 'const a = await ctx.mcpReq.elicitInput({}); const b = await server.server.createMessage({});', 'y');
  const after = lines('x', 'const a = await elicit({}); const b = await server.server.createMessage({});', 'y');
  const [elicitation, sampling] = locateSites(before, after, [
    { line: 2, form: 'elicitInput' },
    { line: 2, form: 'createMessage' },
  ]);
  assert.equal(elicitation.status, 'ported');
  assert.equal(sampling.status, 'kept');
});

test('a marker belongs to the nearest kept site below it, and reaches at most 25 lines', () => {
  const filler = Array.from({ length: 30 }, (_, i) => `const f${i} = ${i};`);
  const before = lines('/* @mrtr-port-todo(raced): far */', ...filler, 'await server.server.listRoots();');
  assert.equal(locateSites(before, before, [{ line: 32, form: 'listRoots' }])[0].status, 'kept');
});

test('an alias site (a call through a variable holding the ask) is ported when its callee is no longer called', () => {
  // gel-mcp-server's shape: fn is a bound elicitInput; the port rewrites `await fn(params)`.
  const before = lines('const fn = getElicitInputFunction(server);', 'try {', '  return await fn(params);', '} catch {}');
  const after = lines('const fn = getElicitInputFunction(server);', 'try {', '  return await elicit(params);', '} catch {}');
  assert.deepEqual(locateSites(before, after, [{ line: 3, form: 'alias' }]), [{ status: 'ported', newLine: null, marker: null }]);
});

test('an alias site still called after the port is kept, and its marker marks it', () => {
  const before = lines('a', 'const r = await fn(params);', 'b');
  const after = lines('a', '// @mrtr-port-todo(indirect-call): decide', 'const r = await fn(params);', 'b');
  assert.deepEqual(locateSites(before, after, [{ line: 2, form: 'alias' }]), [{ status: 'marked', newLine: 3, marker: 'indirect-call' }]);
});

test('an alias through an element access or .call follows that callee', () => {
  const before = lines('x', 'const r = yield* client["sampling/createMessage"](request).pipe(h);', 'y', 'await method.call(server, p);');
  const after = lines('x', 'const r = yield* client["sampling/createMessage"](request).pipe(h); // unchanged call', 'z', 'await sample(p);');
  const [effect, call] = locateSites(before, after, [{ line: 2, form: 'alias' }, { line: 4, form: 'alias' }]);
  assert.equal(effect.status, 'kept');
  assert.equal(call.status, 'ported');
});

test('a labelled line with no call at all in a changed hunk is unresolved', () => {
  const before = lines('a', 'const handler = fn;', 'b');
  const after = lines('a', 'const handler = other;', 'b');
  assert.equal(locateSites(before, after, [{ line: 2, form: 'alias' }])[0].status, 'unresolved');
});

test('a call labelled at its first line is followed to its method named lines below (a cast receiver over lines)', () => {
  const before = lines('a', 'const r = await (', '  this.server as {', '    request: (q: unknown) => Promise<string>;', '  }', ').request(req);', 'b');
  const after = lines('a', 'const r = await inputRequest(req);', 'b');
  assert.equal(locateSites(before, after, [{ line: 2, form: 'request' }])[0].status, 'ported');
  const kept = lines('a', '/* @mrtr-port-todo(raced): decide */', 'const r = await (', '  this.server as {', '    request: (q: unknown) => Promise<string>;', '  }', ').request(req);', 'c');
  assert.equal(locateSites(before, kept, [{ line: 2, form: 'request' }])[0].status, 'marked');
});
