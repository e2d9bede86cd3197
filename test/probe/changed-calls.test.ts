/** The `other-args` replays: one argument changed, same type and shape. */
import { describe, expect, it } from 'vitest';
import { changedCalls } from '../../src/probe/checks/other-args.js';

describe('changedCalls', () => {
  it('changes one argument at a time, keeping its type', () => {
    const changed = changedCalls({ kind: 'tool', name: 'refund', arguments: { orderId: 'A-109', amount: 25, rush: false, meta: { a: 1 } } });
    expect(changed.map((c) => c.call)).toEqual([
      { kind: 'tool', name: 'refund', arguments: { orderId: 'A-100', amount: 25, rush: false, meta: { a: 1 } } },
      { kind: 'tool', name: 'refund', arguments: { orderId: 'A-109', amount: 26, rush: false, meta: { a: 1 } } },
      { kind: 'tool', name: 'refund', arguments: { orderId: 'A-109', amount: 25, rush: true, meta: { a: 1 } } },
    ]);
    expect(changed[0].change).toBe('orderId: "A-100" instead of "A-109"');
  });

  it('moves the last letter or digit of a text (z→a, 9→0) and of a resource URI', () => {
    const [path] = changedCalls({ kind: 'tool', name: 't', arguments: { path: '/srv/data.z/' } });
    expect(path.call).toMatchObject({ arguments: { path: '/srv/data.a/' } });
    expect(changedCalls({ kind: 'resource', uri: 'incident://INC-42' })[0].call).toEqual({ kind: 'resource', uri: 'incident://INC-43' });
    expect(changedCalls({ kind: 'prompt', name: 'p', arguments: { team: '' } })[0].call).toMatchObject({ arguments: { team: 'x' } });
  });

  it('a call without arguments has nothing to change', () => {
    expect(changedCalls({ kind: 'tool', name: 'list', arguments: {} })).toEqual([]);
  });
});
