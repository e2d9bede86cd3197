import { describe, it, expect, vi, afterEach } from 'vitest';
import { rootsFromConfig } from '../../src/runtime/mrtr-continuation.js';

afterEach(() => vi.unstubAllEnvs());

describe('rootsFromConfig', () => {
  it.each<[string, string | undefined, { uri: string }[]]>([
    ['unset', undefined, []],
    ['empty', '', []],
    ['only separators', ' , ,', []],
    ['a file URI', 'file:///srv/data', [{ uri: 'file:///srv/data' }]],
    ['an absolute path', '/srv/data', [{ uri: 'file:///srv/data' }]],
    ['a path with spaces and #', '/srv/my data/#1', [{ uri: 'file:///srv/my%20data/%231' }]],
    ['a Windows path', 'C:\\Users\\ada\\docs', [{ uri: 'file:///C:/Users/ada/docs' }]],
    ['a Windows path with slashes', 'd:/work', [{ uri: 'file:///d:/work' }]],
    ['other schemes kept', 'https://example.org/repo', [{ uri: 'https://example.org/repo' }]],
    ['several, trimmed, de-duplicated', ' /a , file:///b,/a', [{ uri: 'file:///a' }, { uri: 'file:///b' }]],
  ])('%s', (_label, value, roots) => {
    expect(rootsFromConfig({ MCP_ALLOWED_ROOTS: value })).toEqual({ roots });
  });

  it('a relative path is an Error naming the variable and the entry', () => {
    expect(() => rootsFromConfig({ MCP_ALLOWED_ROOTS: '/ok,data/here' })).toThrow(/MCP_ALLOWED_ROOTS entry 2 \("data\/here"\)/);
  });

  it('reads process.env when no environment is given', () => {
    vi.stubEnv('MCP_ALLOWED_ROOTS', '/from/env');
    expect(rootsFromConfig()).toEqual({ roots: [{ uri: 'file:///from/env' }] });
    vi.stubEnv('MCP_ALLOWED_ROOTS', undefined);
    expect(rootsFromConfig()).toEqual({ roots: [] });
  });

  it('the URIs it builds parse back to the configured path', () => {
    const path = '/srv/ünï cødé/a%b';
    const [{ uri }] = rootsFromConfig({ MCP_ALLOWED_ROOTS: path }).roots;
    expect(decodeURIComponent(new URL(uri).pathname)).toBe(path);
  });
});
