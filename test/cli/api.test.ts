/** The package entry (src/index.ts) is what the CLI and other tools call: keep its surface explicit. */
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';

describe('programmatic API', () => {
  it('exports the run functions, discovery, reporters and exit codes', () => {
    for (const name of ['runAnalyze', 'runCheck', 'runPort', 'discoverFiles', 'scanMarkers', 'analyze', 'checkFails'] as const) {
      expect(typeof api[name]).toBe('function');
    }
    expect(Object.keys(api.REPORTERS).sort()).toEqual(['github', 'json', 'sarif', 'text']);
    expect(api.OUTPUT_FORMATS).toEqual(['text', 'json', 'sarif', 'github']);
    expect(api.EXIT_CODES).toEqual({ ok: 0, findings: 1, usage: 2, internal: 2 });
  });
});
