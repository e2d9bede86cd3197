import { describe, expect, it } from 'vitest';
import * as flow from '../src/runtime/mrtr-flow.js';
import { mentionsLegacyVocabulary } from '../src/analyzer/prefilter.js';
import { FLOW_ASK_NAMES, FLOW_RUNTIME_NAMES, isUrlElicitationErrorClass, matchLegacyCall, PREFILTER_NAMES, urlErrorRenaming } from '../src/vocabulary.js';

describe('matchLegacyCall', () => {
  it.each([
    [['ctx', 'mcpReq', 'elicitInput'], undefined, 'elicitation', 'elicitInput'],
    [['ctx', 'mcpReq', 'requestSampling'], undefined, 'sampling', 'requestSampling'],
    [['mcp', 'server', 'createMessage'], undefined, 'sampling', 'createMessage'],
    [['this', 'server', 'server', 'listRoots'], undefined, 'roots', 'listRoots'],
    [['ctx', 'mcpReq', 'send'], 'elicitation/create', 'elicitation', 'send'],
    [['extra', 'sendRequest'], 'sampling/createMessage', 'sampling', 'sendRequest'],
    [['deps', 'context', 'server', 'request'], 'roots/list', 'roots', 'request'],
    [['sendRequest'], 'elicitation/create', 'elicitation', 'sendRequest'],
  ] as const)('%j with method %s is a legacy %s via %s', (callee, methodLiteral, kind, form) => {
    const m = matchLegacyCall({ callee, methodLiteral });
    expect(m?.kind).toBe(kind);
    expect(m?.form).toBe(form);
  });

  it.each([
    // an LLM provider client's createMessage is not the protocol server's
    [['anthropic', 'messages', 'createMessage'], undefined],
    [['llm', 'createMessage'], undefined],
    // raw sends of other methods are not push-style asks
    [['ctx', 'mcpReq', 'send'], 'notifications/progress'],
    [['ctx', 'mcpReq', 'send'], undefined],
    [['server', 'server', 'request'], 'ping'],
    // bare send/elicitInput only count when the adapter proved where they came from
    [['send'], 'elicitation/create'],
    [['elicitInput'], undefined],
    [['listRoots'], undefined],
  ] as const)('%j with method %s is not legacy', (callee, methodLiteral) => {
    expect(matchLegacyCall({ callee, methodLiteral })).toBeUndefined();
  });

  it('accepts a low-level Server receiver the adapter identified', () => {
    expect(matchLegacyCall({ callee: ['low', 'createMessage'], receiverIsServer: true })?.kind).toBe('sampling');
  });

  it('resolves v1 sendRequest by its result schema when the method is not a literal', () => {
    expect(matchLegacyCall({ callee: ['extra', 'sendRequest'], resultSchemaName: 'ListRootsResultSchema' })?.kind).toBe('roots');
  });

  it('prefilters on distinctive names and on the method literals raw senders need', () => {
    expect(PREFILTER_NAMES).toEqual(
      expect.arrayContaining(['elicitInput', 'requestSampling', 'createMessage', 'listRoots', 'elicitation/create', 'sampling/createMessage', 'roots/list', 'ElicitResultSchema', 'UrlElicitationRequiredError']),
    );
    // too common to filter on: they only count with a method literal, which is in the list
    expect(PREFILTER_NAMES).not.toContain('send');
    expect(PREFILTER_NAMES).not.toContain('request');
  });

  it.each(PREFILTER_NAMES)('the text prefilter lets a file through that mentions only %s', (name) => {
    expect(mentionsLegacyVocabulary(`const x = 1;\nfoo.${name}\n`)).toBe(true);
    // each name on its own, cut short by one letter, is not a mention
    expect(mentionsLegacyVocabulary(`const x = 1;\nfoo.${name.slice(0, -1)} bar\n`)).toBe(PREFILTER_NAMES.some((o) => `foo.${name.slice(0, -1)} bar`.includes(o)));
  });

  it('the text prefilter keeps out a file that mentions none of the names', () => {
    expect(mentionsLegacyVocabulary('server.registerTool("x", {}, async () => ({ content: [] }));')).toBe(false);
    expect(mentionsLegacyVocabulary('')).toBe(false);
  });
});

describe('FLOW_RUNTIME_NAMES', () => {
  it('names exactly the functions the flow runtime exports (its error classes aside)', () => {
    const functions = Object.entries(flow)
      .filter(([, value]) => typeof value === 'function' && !/^class\b/.test(Function.prototype.toString.call(value)))
      .map(([name]) => name);
    expect([...FLOW_RUNTIME_NAMES].sort()).toEqual(functions.sort());
  });

  it('lists the asks among them', () => {
    for (const ask of FLOW_ASK_NAMES) expect(FLOW_RUNTIME_NAMES).toContain(ask);
  });
});

describe('isUrlElicitationErrorClass', () => {
  const renamed = new Set(['NeedsUrl']);
  it.each([
    [['UrlElicitationRequiredError'], true],
    [['sdk', 'UrlElicitationRequiredError'], true],
    [['NeedsUrl'], true],
    // a renamed binding is a bare name: a member of that name is another object's
    [['errors', 'NeedsUrl'], false],
    [['LoginRequired'], false],
  ] as const)('%j is the URL-elicitation error: %s', (chain, expected) => {
    expect(isUrlElicitationErrorClass(chain, renamed)).toBe(expected);
  });

  it('counts only a binding of the class under another name', () => {
    expect(urlErrorRenaming('UrlElicitationRequiredError', 'NeedsUrl')).toBe('NeedsUrl');
    expect(urlErrorRenaming('UrlElicitationRequiredError', 'UrlElicitationRequiredError')).toBeUndefined();
    expect(urlErrorRenaming('McpError', 'NeedsUrl')).toBeUndefined();
  });
});
