import { describe, expect, it } from 'vitest';
import { findMarkers, insertMarkers } from '../src/port/markers.js';

const src = ['function f() {', '  const a = 1;', '  await go(a);', '}', ''].join('\n');

describe('insertMarkers', () => {
  it('puts the marker on its own line above the statement, at its indentation', () => {
    const out = insertMarkers(src, [{ line: 3, reason: 'in-loop', message: 'unroll it' }]);
    expect(out.split('\n')[2]).toBe('  /* @mrtr-port-todo(in-loop): unroll it */');
    expect(out.split('\n')[3]).toBe('  await go(a);');
  });

  it('is idempotent: a second run inserts nothing', () => {
    const once = insertMarkers(src, [{ line: 3, reason: 'in-loop', message: 'unroll it' }]);
    const markers = findMarkers(once);
    expect(insertMarkers(once, [{ line: markers[0].line + 1, reason: 'in-loop', message: 'unroll it' }])).toBe(once);
  });

  it('merges requests for one line, keeps CRLF and escapes comment ends', () => {
    const crlf = src.replace(/\n/g, '\r\n');
    const out = insertMarkers(crlf, [
      { line: 2, reason: 'raced', message: 'a */ b' },
      { line: 2, reason: 'raced', message: 'dup' },
      { line: 2, reason: 'in-loop', message: 'c' },
    ]);
    expect(out.split('\r\n')).toHaveLength(src.split('\n').length + 2);
    expect(out).not.toMatch(/[^\r]\n/);
    expect(out).toContain('@mrtr-port-todo(raced): a * / b */');
  });

  it('leaves a line acknowledged with @mrtr-port-ignore alone', () => {
    const ack = src.replace('  await go(a);', '  // @mrtr-port-ignore reviewed\n  await go(a);');
    expect(insertMarkers(ack, [{ line: 4, reason: 'in-loop', message: 'x' }])).toBe(ack);
  });
});

describe('findMarkers', () => {
  it('finds reason, message and position; notes acknowledgement', () => {
    const text = 'a\n  /* @mrtr-port-todo(raced): decide the fallback */\n// @mrtr-port-ignore ok\n/* @mrtr-port-todo(in-loop): x */\n';
    expect(findMarkers(text)).toEqual([
      { line: 2, column: 3, reason: 'raced', message: 'decide the fallback', acknowledged: false },
      { line: 4, column: 1, reason: 'in-loop', message: 'x', acknowledged: true },
    ]);
  });

  it('ignores the prefix outside a comment, and in prose that does not start with it', () => {
    expect(findMarkers('const s = "@mrtr-port-todo(x): y";')).toEqual([]);
    expect(findMarkers('// the port writes @mrtr-port-todo(x): markers\n/* see @mrtr-port-todo(y): z */')).toEqual([]);
  });

  it('finds a marker trailing a statement and the line form (CRLF too)', () => {
    const text = 'go(); /* @mrtr-port-todo(raced): decide */\r\n  // @mrtr-port-todo(roots-retired): set MCP_ALLOWED_ROOTS  \r\nx();';
    expect(findMarkers(text)).toEqual([
      { line: 1, column: 7, reason: 'raced', message: 'decide', acknowledged: false },
      { line: 2, column: 3, reason: 'roots-retired', message: 'set MCP_ALLOWED_ROOTS', acknowledged: false },
    ]);
  });
});
