/**
 * The flow runtime against the real SDK: a 2026-07-28 client, every round on the other replica.
 * Each case checks the port's promise: every effect once per completed call, in order, with the same
 * values; decline/cancel as the legacy code handles them; ask again on a bad answer without re-running.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import { binding, elicit, inputRequest, isSuspension, listRoots, once, resumable, sample, suspended, clientCapabilities, urlElicitationRequired } from '../../src/runtime/mrtr-flow.js';
import { connectLegacy, connectModern, EffectLog, flowContinuation, newServer, textOf, type Exchange } from './flow-harness.js';

const confirmSchema = { type: 'object' as const, properties: { confirm: { type: 'boolean' as const } }, required: ['confirm'] };
const options = { continuation: flowContinuation };
let open: Exchange[] = [];

afterEach(async () => {
  await Promise.all(open.map((e) => e.close()));
  open = [];
});

async function modern(build: () => McpServer, script?: Parameters<typeof connectModern>[1]): Promise<Exchange> {
  const e = await connectModern(build, script);
  open.push(e);
  return e;
}

/** refund: an effect and a random reference before the question, the refund after it. */
function refundServer(log: EffectLog): () => McpServer {
  let counter = 0;
  return () => {
    const server = newServer();
    server.registerTool(
      'refund',
      { inputSchema: z.object({ orderId: z.string() }) },
      resumable(
        'refund',
        async ({ orderId }) => {
          const order = await once(async () => {
            log.record(`load ${orderId}`);
            return { id: orderId, total: 42 };
          });
          const ref = await once(() => `ref-${++counter}`);
          await once(() => log.record(`hold ${ref}`));
          const answer = await elicit({ message: `Refund ${order.total} (${ref})?`, requestedSchema: confirmSchema });
          if (answer.action !== 'accept') return { content: [{ type: 'text', text: `not refunded (${answer.action})` }] };
          if (answer.content?.confirm !== true) return { content: [{ type: 'text', text: 'not confirmed' }] };
          log.record(`refund ${order.id} ${ref}`);
          return { content: [{ type: 'text', text: `refunded ${ref}` }] };
        },
        options,
      ),
    );
    return server;
  };
}

describe('one question', () => {
  it('runs the code before the question once and uses the value it showed', async () => {
    const log = new EffectLog();
    const e = await modern(refundServer(log), { elicit: [{ action: 'accept', content: { confirm: true } }] });
    const result = await e.client.callTool({ name: 'refund', arguments: { orderId: 'A-1' } });
    expect(textOf(result)).toBe('refunded ref-1');
    expect(e.asked).toEqual(['Refund 42 (ref-1)?']);
    expect(log.effects).toEqual(['load A-1', 'hold ref-1', 'refund A-1 ref-1']);
    expect(e.hits[0]).toBeGreaterThan(0);
    expect(e.hits[1]).toBeGreaterThan(0);
  });

  it.each(['decline', 'cancel'] as const)('keeps the legacy %s branch and never asks again', async (action) => {
    const log = new EffectLog();
    const e = await modern(refundServer(log), { elicit: [{ action }] });
    const result = await e.client.callTool({ name: 'refund', arguments: { orderId: 'A-2' } });
    expect(textOf(result)).toBe(`not refunded (${action})`);
    expect(e.asked).toHaveLength(1);
    expect(log.effects).toEqual(['load A-2', 'hold ref-1']);
  });

  it('asks again on an answer that does not match the schema, without re-running anything', async () => {
    const log = new EffectLog();
    const e = await modern(refundServer(log), { elicit: [{ action: 'accept', content: { confirm: 'yes' } }, { action: 'accept', content: { confirm: true } }] });
    const result = await e.client.callTool({ name: 'refund', arguments: { orderId: 'A-3' } });
    expect(textOf(result)).toBe('refunded ref-1');
    expect(e.asked).toEqual(['Refund 42 (ref-1)?', 'Refund 42 (ref-1)?']);
    expect(log.effects).toEqual(['load A-3', 'hold ref-1', 'refund A-3 ref-1']);
  });
});

/** A tool asking `first` and the team in one Promise.all, then recording both answers (`first.key` names the first). */
function batchedProfile(log: EffectLog, first: { message: string; key: string; requestedSchema: Extract<Parameters<typeof elicit>[0], { requestedSchema: unknown }>['requestedSchema'] }): () => McpServer {
  return () => {
    const server = newServer();
    server.registerTool(
      'profile',
      {},
      resumable(
        'profile',
        async () => {
          const [answer, team] = await Promise.all([
            elicit({ message: first.message, requestedSchema: first.requestedSchema }),
            elicit({ message: 'Team?', requestedSchema: { type: 'object', properties: { team: { type: 'string' } }, required: ['team'] } }),
          ]);
          log.record(`save ${String(answer.content?.[first.key])} ${String(team.content?.team)}`);
          return { content: [{ type: 'text', text: 'saved' }] };
        },
        options,
      ),
    );
    return server;
  };
}

describe('several questions', () => {
  it('asks Promise.all batches in one round', async () => {
    const log = new EffectLog();
    const build = batchedProfile(log, { message: 'Name?', key: 'name', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
    const e = await modern(build, { elicit: [{ action: 'accept', content: { name: 'Ada', team: 'core' } }] });
    expect(textOf(await e.client.callTool({ name: 'profile', arguments: {} }))).toBe('saved');
    expect(e.asked).toEqual(['Name?', 'Team?']);
    expect(e.methods.filter((m) => m === 'tools/call')).toHaveLength(2); // one round asks both, one completes
    expect(log.effects).toEqual(['save Ada core']);
  });

  it('asks again only the question of a Promise.all batch whose answer was invalid, keeping the valid one', async () => {
    const log = new EffectLog();
    const build = batchedProfile(log, { message: 'Age?', key: 'age', requestedSchema: { type: 'object', properties: { age: { type: 'integer', minimum: 0 } }, required: ['age'] } });
    // the first answer fails the schema (age below its minimum), the second is valid; then the age again
    const e = await modern(build, {
      elicit: [
        { action: 'accept', content: { age: -1 } },
        { action: 'accept', content: { team: 'core' } },
        { action: 'accept', content: { age: 36 } },
      ],
    });
    expect(textOf(await e.client.callTool({ name: 'profile', arguments: {} }))).toBe('saved');
    expect(e.asked).toEqual(['Age?', 'Team?', 'Age?']);
    expect(e.methods.filter((m) => m === 'tools/call')).toHaveLength(3);
    expect(log.effects).toEqual(['save 36 core']);
  });

  it('runs the code between sequential questions once, asks inside helpers, loops and try blocks', async () => {
    const log = new EffectLog();
    const ask = async (message: string): Promise<boolean> => {
      try {
        const r = await elicit({ message, requestedSchema: confirmSchema });
        return r.action === 'accept' && r.content?.confirm === true;
      } catch (error) {
        if (isSuspension(error)) throw error;
        return false;
      }
    };
    const build = (): McpServer => {
      const server = newServer();
      server.registerTool(
        'cleanup',
        { inputSchema: z.object({ files: z.array(z.string()) }) },
        resumable(
          'cleanup',
          async ({ files }) => {
            const deleted: string[] = [];
            for (const file of files) {
              if (await ask(`Delete ${file}?`)) {
                await once(() => log.record(`delete ${file}`));
                deleted.push(file);
              }
            }
            log.record(`report ${deleted.join(',')}`);
            return { content: [{ type: 'text', text: deleted.join(',') }] };
          },
          options,
        ),
      );
      return server;
    };
    const e = await modern(build, {
      elicit: [{ action: 'accept', content: { confirm: true } }, { action: 'decline' }, { action: 'accept', content: { confirm: true } }],
    });
    const result = await e.client.callTool({ name: 'cleanup', arguments: { files: ['a', 'b', 'c'] } });
    expect(textOf(result)).toBe('a,c');
    expect(e.methods.filter((m) => m === 'tools/call')).toHaveLength(4); // a round per iteration, then the last
    expect(e.asked).toEqual(['Delete a?', 'Delete b?', 'Delete c?']);
    expect(log.effects).toEqual(['delete a', 'delete c', 'report a,c']);
  });
});

describe('capabilities', () => {
  function exportServer(log: EffectLog): () => McpServer {
    return () => {
      const server = newServer();
      server.registerTool(
        'export',
        {},
        resumable(
          'export',
          async () => {
            let format = 'csv';
            try {
              const r = await elicit({ message: 'Format?', requestedSchema: { type: 'object', properties: { format: { type: 'string' } }, required: ['format'] } });
              if (r.action === 'accept') format = String(r.content?.format);
            } catch (error) {
              if (isSuspension(error)) throw error;
              log.record(`fallback: ${(error as Error).message}`);
            }
            log.record(`export ${format}`);
            return { content: [{ type: 'text', text: format }] };
          },
          options,
        ),
      );
      return server;
    };
  }

  it('keeps a legacy fallback for clients without elicitation: the ask throws the legacy error', async () => {
    const log = new EffectLog();
    const e = await modern(exportServer(log), { capabilities: { sampling: {} } });
    expect(textOf(await e.client.callTool({ name: 'export', arguments: {} }))).toBe('csv');
    expect(log.effects).toEqual(['fallback: Client does not support form elicitation.', 'export csv']);
  });

  it('reads the per-request capabilities', async () => {
    let seen: unknown;
    const build = (): McpServer => {
      const server = newServer();
      server.registerTool('caps', {}, resumable('caps', async () => {
        seen = clientCapabilities();
        return { content: [{ type: 'text', text: 'ok' }] };
      }, options));
      return server;
    };
    const e = await modern(build, { capabilities: { elicitation: { form: {} } } });
    await e.client.callTool({ name: 'caps', arguments: {} });
    expect(seen).toMatchObject({ elicitation: { form: {} } });
  });
});

describe('sampling, roots, raw requests, prompts and resources', () => {
  it('serves sampling and roots as rounds, and a low-level raw request', async () => {
    const log = new EffectLog();
    const build = (): McpServer => {
      const server = newServer();
      server.registerTool('summarize', { inputSchema: z.object({ text: z.string() }) }, resumable('summarize', async ({ text }) => {
        const roots = await listRoots();
        const r = await sample({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 10 });
        const raw = await inputRequest({ method: 'elicitation/create', params: { message: 'Publish?', requestedSchema: confirmSchema } });
        log.record(`publish ${raw.action}`);
        return { content: [{ type: 'text', text: `${roots.roots[0]?.uri} ${r.content.type === 'text' ? r.content.text : ''}` }] };
      }, options));
      server.registerPrompt('greet', { argsSchema: z.object({ who: z.string() }) }, resumable('greet', async ({ who }) => {
        const r = await elicit({ message: `Greet ${who} how?`, requestedSchema: { type: 'object', properties: { tone: { type: 'string' } }, required: ['tone'] } });
        return { messages: [{ role: 'user', content: { type: 'text', text: `${String(r.content?.tone)} hello ${who}` } }] };
      }, options));
      server.registerResource('note', 'note://today', {}, resumable('note', async (uri) => {
        const r = await elicit({ message: `Read ${uri.href}?`, requestedSchema: confirmSchema });
        return { contents: [{ uri: uri.href, text: r.action }] };
      }, options));
      return server;
    };
    const e = await modern(build, { sampled: 'short', elicit: [{ action: 'accept', content: { confirm: true, tone: 'warm' } }] });
    expect(textOf(await e.client.callTool({ name: 'summarize', arguments: { text: 'long text' } }))).toBe('file:///srv/work short');
    expect(log.effects).toEqual(['publish accept']);
    const prompt = await e.client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
    expect(JSON.stringify(prompt.messages)).toContain('warm hello Ada');
    const resource = await e.client.readResource({ uri: 'note://today' });
    expect(resource.contents[0]).toMatchObject({ text: 'accept' });
  });
});

describe('a raw request with the result schema the legacy call passed', () => {
  it('resolves with the schema\'s output (a transform applied), and fails as the legacy call did on an answer the schema refuses', async () => {
    const log = new EffectLog();
    const build = (): McpServer => {
      const server = newServer();
      // the request held in a variable, its method a plain string, as real servers write it
      const request = { method: 'elicitation/create', params: { message: 'Publish?', requestedSchema: confirmSchema } };
      const decision = z.object({ action: z.string(), content: z.object({ confirm: z.boolean() }).optional() }).transform((r) => ({ ...r, decided: true }));
      server.registerTool('publish', { inputSchema: z.object({}) }, resumable('publish', async () => {
        const answer = await inputRequest(request, decision);
        log.record(`publish ${answer.action} ${String(answer.decided)}`);
        return { content: [{ type: 'text', text: String(answer.content?.confirm) }] };
      }, options));
      server.registerTool('strict', { inputSchema: z.object({}) }, resumable('strict', async () => {
        const answer = await inputRequest(request, z.object({ action: z.literal('decline') }));
        log.record(`strict ${answer.action}`);
        return { content: [{ type: 'text', text: answer.action }] };
      }, options));
      return server;
    };
    const e = await modern(build, { elicit: [{ action: 'accept', content: { confirm: true } }] });
    expect(textOf(await e.client.callTool({ name: 'publish', arguments: {} }))).toBe('true');
    const refused = await e.client.callTool({ name: 'strict', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/does not match the result schema/);
    expect(log.effects).toEqual(['publish accept true']);
  });
});

describe('attacks and replays', () => {
  async function manualRound(e: Exchange, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    return (await e.client.request({ method: 'tools/call', params }, { allowInputRequired: true } as never)) as Record<string, unknown>;
  }

  it('refuses a replayed final round: the effect after the answer happens once', async () => {
    const log = new EffectLog();
    const e = await modern(refundServer(log));
    const first = await manualRound(e, { name: 'refund', arguments: { orderId: 'R-1' } });
    expect(first.resultType).toBe('input_required');
    const key = Object.keys(first.inputRequests as object)[0]!;
    const retry = { name: 'refund', arguments: { orderId: 'R-1' }, inputResponses: { [key]: { action: 'accept', content: { confirm: true } } }, requestState: first.requestState };
    expect(textOf(await manualRound(e, retry))).toBe('refunded ref-1');
    const replay = await manualRound(e, retry);
    expect(replay.isError).toBe(true);
    expect(textOf(replay)).toContain('already answered');
    expect(log.effects.filter((x) => x.startsWith('refund'))).toEqual(['refund R-1 ref-1']);
  });

  it.each([
    ['a tampered state', (s: string) => `${s.slice(0, -4)}${s.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`, { orderId: 'T-1' }],
    ['other arguments', (s: string) => s, { orderId: 'T-2-other' }],
  ])('refuses %s before running anything', async (_what, change, args) => {
    const log = new EffectLog();
    const e = await modern(refundServer(log));
    const first = await manualRound(e, { name: 'refund', arguments: { orderId: 'T-1' } });
    const key = Object.keys(first.inputRequests as object)[0]!;
    const before = [...log.effects];
    const attack = await manualRound(e, {
      name: 'refund',
      arguments: args,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
      requestState: change(String(first.requestState)),
    });
    expect(attack.isError).toBe(true);
    expect(textOf(attack)).toContain('Invalid or expired requestState');
    expect(log.effects).toEqual(before);
  });

  it('refuses answers sent without a state', async () => {
    const log = new EffectLog();
    const e = await modern(refundServer(log));
    const attack = await manualRound(e, { name: 'refund', arguments: { orderId: 'N-1' }, inputResponses: { elicit1: { action: 'accept', content: { confirm: true } } } });
    expect(attack.isError).toBe(true);
    expect(log.effects).toEqual([]);
  });

  it('asks again when the retry carries the state but no answer', async () => {
    const log = new EffectLog();
    const e = await modern(refundServer(log));
    const first = await manualRound(e, { name: 'refund', arguments: { orderId: 'M-1' } });
    const again = await manualRound(e, { name: 'refund', arguments: { orderId: 'M-1' }, requestState: first.requestState });
    expect(again.resultType).toBe('input_required');
    expect(again.inputRequests).toEqual(first.inputRequests);
    expect(log.effects).toEqual(['load M-1', 'hold ref-1']);
  });
});

describe('the journal', () => {
  it('fails (never mis-replays) when the code ran differently on a later round', async () => {
    let round = 0;
    const build = (): McpServer => {
      const server = newServer();
      server.registerTool('flaky', {}, resumable('flaky', async () => {
        round++;
        if (round === 1) await once(() => 'first path');
        else await once(() => 'another path');
        const r = await elicit({ message: 'Go?', requestedSchema: confirmSchema });
        return { content: [{ type: 'text', text: r.action }] };
      }, options));
      return server;
    };
    const e = await modern(build, { elicit: [{ action: 'accept', content: { confirm: true } }] });
    const result = await e.client.callTool({ name: 'flaky', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('does not match');
  });

  it('carries dates, maps, sets, bigints, undefined and errors; a class instance is not carried', async () => {
    class Handle {
      constructor(readonly id: number) {}
    }
    const seen: unknown[] = [];
    const build = (): McpServer => {
      const server = newServer();
      server.registerTool('values', {}, resumable('values', async () => {
        const values = await once(() => ({ at: new Date(Date.UTC(2026, 0, 2)), m: new Map([['k', 1n]]), s: new Set(['x']), u: undefined, n: Number.NaN }));
        const failed = await once(async () => {
          throw new TypeError('boom');
        }).catch((error: Error) => `${error.name}: ${error.message}`);
        const handle = await once(() => new Handle(7));
        await elicit({ message: 'Go?', requestedSchema: confirmSchema });
        seen.push(values.at instanceof Date && values.at.toISOString(), values.m.get('k'), values.s.has('x'), 'u' in values, Number.isNaN(values.n), failed);
        return { content: [{ type: 'text', text: String(handle.id) }] };
      }, options));
      return server;
    };
    const e = await modern(build, { elicit: [{ action: 'accept', content: { confirm: true } }] });
    const result = await e.client.callTool({ name: 'values', arguments: {} });
    expect(seen).toEqual(['2026-01-02T00:00:00.000Z', 1n, true, true, true, 'TypeError: boom']);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('cannot travel in requestState');
  });

  it('restores arguments a memoized call changed in place', async () => {
    const build = (): McpServer => {
      const server = newServer();
      server.registerTool('fill', {}, resumable('fill', async () => {
        const order: { items: string[]; total?: number } = { items: ['a'] };
        await once(() => {
          order.total = 3;
          order.items.push('b');
        }, order);
        await elicit({ message: 'Go?', requestedSchema: confirmSchema });
        return { content: [{ type: 'text', text: `${order.items.join('')} ${order.total}` }] };
      }, options));
      return server;
    };
    const e = await modern(build, { elicit: [{ action: 'accept', content: { confirm: true } }] });
    expect(textOf(await e.client.callTool({ name: 'fill', arguments: {} }))).toBe('ab 3');
  });

  it('restores an argument in place but keeps the live handles it holds (they cannot travel)', async () => {
    // a per-request `env`/`deps` object: a database handle (a class instance) next to plain values,
    // handed to a memoized read; the code after the answer still uses the handle
    class Db {
      constructor(private readonly rows: string[]) {}
      write(row: string): number {
        this.rows.push(row);
        return this.rows.length;
      }
    }
    const rows: string[] = [];
    const build = (): McpServer => {
      const server = newServer();
      server.registerTool('session', {}, resumable('session', async () => {
        const env = { db: new Db(rows), nested: { db: new Db(rows), label: 'x' }, reads: 0 };
        const active = await once(() => {
          env.reads++;
          env.nested.label = 'y';
          return 'running';
        }, env);
        const r = await elicit({ message: `${active}: replace?`, requestedSchema: confirmSchema });
        const n = env.db.write(`${r.action} ${env.reads}`) + env.nested.db.write(env.nested.label);
        return { content: [{ type: 'text', text: `${r.action} ${env.reads} ${env.nested.label} ${n}` }] };
      }, options));
      return server;
    };
    const e = await modern(build, { elicit: [{ action: 'accept', content: { confirm: true } }] });
    const result = await e.client.callTool({ name: 'session', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('accept 1 y 3');
    expect(rows).toEqual(['accept 1', 'y']);
  });

  it('restores a local a memoized callback assigned (binding)', async () => {
    const log = new EffectLog();
    const build = (): McpServer => {
      const server = newServer();
      server.registerTool('status', {}, resumable('status', async () => {
        let status = 0;
        await once(
          () => Promise.resolve(201).then((s) => { log.record(`fetched ${s}`); status = s; }),
          binding(() => status, (v) => { status = v; }),
        );
        const r = await elicit({ message: `Status ${status}: go?`, requestedSchema: confirmSchema });
        return { content: [{ type: 'text', text: `${r.action} ${status}` }] };
      }, options));
      return server;
    };
    const e = await modern(build, { elicit: [{ action: 'accept', content: { confirm: true } }] });
    expect(textOf(await e.client.callTool({ name: 'status', arguments: {} }))).toBe('accept 201');
    expect(log.effects).toEqual(['fetched 201']);
  });

  it('shows every round the outer state the first round read, on a replica whose own state differs', async () => {
    // each replica builds its own server, so each has its own count: the retry lands on the other one
    const build = (memoizedRead: boolean) => (): McpServer => {
      let calls = 0;
      const server = newServer();
      server.registerTool('count', {}, resumable('count', async () => {
        await once(() => calls++);
        const seen = memoizedRead ? await once(() => calls) : calls;
        const r = await elicit({ message: `Call ${seen}: go?`, requestedSchema: confirmSchema });
        return { content: [{ type: 'text', text: `${r.action} at call ${seen}` }] };
      }, options));
      return server;
    };
    const ported = await modern(build(true), { elicit: [{ action: 'accept', content: { confirm: true } }] });
    expect(textOf(await ported.client.callTool({ name: 'count', arguments: {} }))).toBe('accept at call 1');
    // read live, the other replica (calls = 0) builds another question than the one answered
    const live = await modern(build(false), { elicit: [{ action: 'accept', content: { confirm: true } }] });
    expect(textOf(await live.client.callTool({ name: 'count', arguments: {} }))).toMatch(/not the one that was answered|diverged/i);
  });

  it('guards a finally block with effects and runs it once', async () => {
    const log = new EffectLog();
    const build = (): McpServer => {
      const server = newServer();
      server.registerTool('locked', {}, resumable('locked', async () => {
        try {
          const r = await elicit({ message: 'Go?', requestedSchema: confirmSchema });
          return { content: [{ type: 'text', text: r.action }] };
        } finally {
          if (!suspended()) log.record('release');
        }
      }, options));
      return server;
    };
    const e = await modern(build, { elicit: [{ action: 'accept', content: { confirm: true } }] });
    expect(textOf(await e.client.callTool({ name: 'locked', arguments: {} }))).toBe('accept');
    expect(log.effects).toEqual(['release']);
  });
});

describe('URL elicitation thrown as an error', () => {
  it('asks the URL step, then runs the handler again from the start', async () => {
    const log = new EffectLog();
    let linked = false;
    const build = (): McpServer => {
      const server = newServer();
      server.registerTool('connect', {}, resumable('connect', async () => {
        await once(() => log.record(`check ${linked}`));
        if (!linked) {
          linked = true; // the user completes the step out of band
          return urlElicitationRequired([{ message: 'Link your account', url: 'https://example.test/link', elicitationId: 'e-1' }]);
        }
        return { content: [{ type: 'text', text: 'connected' }] };
      }, options));
      return server;
    };
    const e = await modern(build, { elicit: [{ action: 'accept' }] });
    expect(textOf(await e.client.callTool({ name: 'connect', arguments: {} }))).toBe('connected');
    expect(log.effects).toEqual(['check false', 'check true']);
  });
});

describe('outside a flow, and the 2025 era', () => {
  it('runs once() directly and refuses an ask outside a resumable handler', async () => {
    expect(await once(() => 5)).toBe(5);
    await expect(elicit({ message: 'x', requestedSchema: confirmSchema })).rejects.toThrow(/outside a resumable handler/);
  });

  it('serves a 2025 client through the SDK legacy shim', async () => {
    const log = new EffectLog();
    const e = await connectLegacy(refundServer(log), { elicit: [{ action: 'accept', content: { confirm: true } }] });
    open.push(e);
    expect(textOf(await e.client.callTool({ name: 'refund', arguments: { orderId: 'L-1' } }))).toBe('refunded ref-1');
    expect(log.effects).toEqual(['load L-1', 'hold ref-1', 'refund L-1 ref-1']);
  });
});

describe('binding', () => {
  it('binds arguments a schema turned into values JSON has no form for (a coerced date)', async () => {
    const log = new EffectLog();
    const build = (): McpServer => {
      const server = newServer();
      server.registerTool('remind', { inputSchema: z.object({ at: z.coerce.date() }) }, resumable('remind', async ({ at }) => {
        const r = await elicit({ message: `Remind at ${at.toISOString()}?`, requestedSchema: confirmSchema });
        log.record(`${r.action} ${at.toISOString()}`);
        return { content: [{ type: 'text', text: r.action }] };
      }, options));
      return server;
    };
    const e = await modern(build, { elicit: [{ action: 'accept', content: { confirm: true } }] });
    expect(textOf(await e.client.callTool({ name: 'remind', arguments: { at: '2026-12-24T09:00:00Z' } }))).toBe('accept');
    expect(log.effects).toEqual(['accept 2026-12-24T09:00:00.000Z']);
  });
});
