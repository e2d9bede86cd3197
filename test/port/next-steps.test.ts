// The next steps a port run ends with: each one only when the run calls for it, naming the files.
import { describe, expect, it } from 'vitest';
import { legacyTransportsIn, nextSteps, portedRuntimeIn, serverFactoryIn, type RunFacts } from '../../src/port/next-steps.js';
import type { HelperOutcome, ManifestOutcome } from '../../src/port/result.js';

const SUMMARY = { scanned: 3, changed: 1, unchanged: 2, skipped: 0, skippedBy: {}, failed: 0, v1Migrated: 0, sites: 1, markers: 0, codemodMarkers: 0 };
const FLOW_HELPERS: HelperOutcome[] = [
  { file: 'src/mrtr-claims.ts', status: 'written', importedBy: ['src/mrtr-flow.ts'] },
  { file: 'src/mrtr-continuation.ts', status: 'written', importedBy: ['src/mrtr-claims.ts', 'src/mrtr-flow.ts'] },
  { file: 'src/mrtr-flow.ts', status: 'written', importedBy: ['src/server.ts'] },
];
const MANIFEST: ManifestOutcome = { file: 'package.json', status: 'written', added: { '@modelcontextprotocol/server': '^2.4.0' }, removed: ['@modelcontextprotocol/sdk'], unknown: [], updated: {}, kept: [], notes: [] };

function facts(over: Partial<RunFacts> = {}): RunFacts {
  return {
    dryRun: false,
    claims: 'memory',
    files: [{ file: 'src/server.ts', status: 'changed', v1Migrated: false, sites: 1, markers: 0, codemodMarkers: 0 }],
    helpers: FLOW_HELPERS,
    manifests: [],
    summary: SUMMARY,
    legacyHosts: [],
    ...over,
  };
}
const ids = (over: Partial<RunFacts> = {}) => nextSteps(facts(over)).map((s) => s.id);

describe('nextSteps', () => {
  it('nothing ported, nothing left: no step', () => {
    expect(nextSteps(facts({ files: [], helpers: [], summary: { ...SUMMARY, changed: 0, sites: 0 } }))).toEqual([]);
  });

  it('a ported server: the state keys (with how to make one) and the claim store for replicas', () => {
    const steps = nextSteps(facts());
    expect(steps.map((s) => s.id)).toEqual(['state-keys', 'claims']);
    expect(steps[0].text).toContain('openssl rand -base64 48');
    expect(steps[0].text).toMatch(/same on every replica/);
    expect(steps[1].text).toMatch(/--claims redis/);
    expect(nextSteps(facts({ claims: 'redis' }))[1].text).toMatch(/^Set MRTR_CLAIMS_REDIS_URL .*appendfsync always/);
  });

  it('no claim-store step when no claim store was written (the old engine imports the continuation only)', () => {
    expect(ids({ helpers: [{ file: 'src/mrtr-continuation.ts', status: 'written', importedBy: ['src/server.ts'] }] })).toEqual(['state-keys']);
  });

  it('npm install after a package.json change, in its folder; under dry-run, after applying', () => {
    const steps = nextSteps(facts({ manifests: [MANIFEST, { ...MANIFEST, file: 'packages/api/package.json' }] }));
    expect(steps[0]).toEqual({ id: 'install', text: expect.stringMatching(/^Run `npm install` in \. and packages\/api: the port changed package\.json and packages\/api\/package\.json\.$/), files: ['package.json', 'packages/api/package.json'] });
    const dry = nextSteps(facts({ dryRun: true, manifests: [{ ...MANIFEST, status: 'would-write' }] }));
    expect(dry.map((s) => s.id).slice(0, 2)).toEqual(['apply', 'install']);
    expect(dry[1].text).toMatch(/once the changes are applied: the port would change package\.json/);
    // a manifest with only something to say is no reason to install
    expect(ids({ manifests: [{ ...MANIFEST, status: 'unchanged', added: {}, removed: [], kept: [{ name: '@modelcontextprotocol/sdk', reason: 'a source file still imports it' }] }] })).toEqual(['v1-left', 'state-keys', 'claims']);
  });

  it('zod 3 raised: review your zod code', () => {
    const zod = { ...MANIFEST, updated: { zod: { from: '^3.23.0', to: '^4.2.0' } }, notes: ['zod "^3.23.0" → "^4.2.0": SDK v2 needs zod >= 4.2 (… with zod 3 the migrated registrations do not type-check …)'] };
    expect(ids({ manifests: [zod] })).toContain('zod-4');
  });

  it('a server hosted on a hand-connected transport: how to host it on 2026-07-28, naming file and transport', () => {
    const steps = nextSteps(facts({ legacyHosts: [{ file: 'src/main.ts', transport: 'StdioServerTransport' }, { file: 'src/http.ts', transport: 'NodeStreamableHTTPServerTransport' }] }));
    const host = steps.find((s) => s.id === 'host-2026')!;
    expect(host.text).toContain('src/main.ts connects StdioServerTransport; src/http.ts connects NodeStreamableHTTPServerTransport');
    expect(host.text).toMatch(/createMcpHandler.*serveStdio/);
    expect(host.files).toEqual(['src/main.ts', 'src/http.ts']);
  });

  it('a second run over a ported tree (no helper written) still gives the state keys and its claim store', () => {
    const second = { files: [{ file: 'src/server.ts', status: 'unchanged' as const, v1Migrated: false, sites: 0, markers: 0, codemodMarkers: 0 }], helpers: [], summary: { ...SUMMARY, changed: 0, sites: 0 } };
    expect(ids({ ...second, portedFiles: ['src/server.ts'], claimStores: ['src/mrtr-claims.ts'] })).toEqual(['state-keys', 'claims']);
    // the tree's Redis store decides the advice, whatever this run's --claims
    const redis = nextSteps(facts({ ...second, portedFiles: ['src/server.ts'], claimStores: ['src/mrtr-claims-redis.ts'] }));
    expect(redis[1].text).toMatch(/^Set MRTR_CLAIMS_REDIS_URL/);
    const hosted = nextSteps(facts({ ...second, portedFiles: ['src/server.ts'], claimStores: [], legacyHosts: [{ file: 'src/main.ts', transport: 'StdioServerTransport' }] }));
    expect(hosted.map((s) => s.id)).toEqual(['state-keys', 'host-2026']);
    expect(ids({ ...second, portedFiles: [], claimStores: [] })).toEqual([]);
  });

  it('host-2026 names the function that builds the server, or asks for one', () => {
    const text = (factory?: string) => nextSteps(facts({ legacyHosts: [{ file: 'src/main.ts', transport: 'StdioServerTransport', ...(factory ? { factory } : {}) }] })).find((s) => s.id === 'host-2026')!.text;
    expect(text('createServer')).toContain('src/main.ts connects StdioServerTransport to the server `createServer()` builds');
    expect(text('createServer')).toContain('`createMcpHandler(() => createServer())`');
    expect(text('createServer')).toContain('`serveStdio(() => createServer())`');
    expect(text()).toMatch(/Move the code that builds the server .* into a function, say `buildServer`/);
  });

  it('serverFactoryIn: the function whose result is connected; none for a server made with new', () => {
    expect(serverFactoryIn('const server = await createServer(config);\nawait server.connect(new StdioServerTransport());')).toBe('createServer');
    expect(serverFactoryIn('const mcp: McpServer = buildMcp();\nmcp.connect(transport);')).toBe('buildMcp');
    expect(serverFactoryIn("const server = new McpServer({ name: 'x', version: '1' });\nserver.connect(new StdioServerTransport());")).toBeUndefined();
  });

  it('portedRuntimeIn: the files that import the flow runtime, and the claim stores', () => {
    const files = [
      { file: 'src/server.ts', text: "import { once, resumable } from './mrtr-flow.js';" },
      { file: 'src/legacy.cjs', text: "const { elicit } = require('./lib/mrtr-flow.cjs');" },
      { file: 'src/other.ts', text: "import { flow } from './flow.js';" },
      { file: 'src/mrtr-claims-redis.ts', text: 'export {}' },
    ];
    expect(portedRuntimeIn(files)).toEqual({ portedFiles: ['src/server.ts', 'src/legacy.cjs'], claimStores: ['src/mrtr-claims-redis.ts'] });
  });

  it('markers and codemod comments left: check, with counts and files', () => {
    const files = [
      { file: 'src/a.ts', status: 'changed' as const, v1Migrated: true, sites: 2, markers: 2, codemodMarkers: 1 },
      { file: 'src/b.ts', status: 'unchanged' as const, v1Migrated: false, sites: 1, markers: 1, codemodMarkers: 0 },
    ];
    const steps = nextSteps(facts({ files, summary: { ...SUMMARY, markers: 3, codemodMarkers: 1 } }));
    expect(steps.find((s) => s.id === 'markers')).toEqual({ id: 'markers', text: expect.stringMatching(/^Resolve 3 markers in 2 files: `npx mrtr-port check`/), files: ['src/a.ts', 'src/b.ts'] });
    expect(steps.find((s) => s.id === 'codemod-markers')?.files).toEqual(['src/a.ts']);
  });

  it('markers that only ask for a review of a ported site are not called unported sites', () => {
    const files = [{ file: 'src/a.ts', status: 'changed' as const, v1Migrated: false, sites: 2, markers: 2, codemodMarkers: 0 }];
    const summary = { ...SUMMARY, markers: 2 };
    const text = (markerReasons: string[]) => nextSteps(facts({ files, summary, markerReasons })).find((s) => s.id === 'markers')?.text;
    expect(text(['capability-fallback', 'roots-retired'])).toMatch(/^Review 2 markers in 1 file: .*\(the sites are ported; each marker asks you to confirm what the port decided, then delete it\)\.$/);
    expect(text(['capability-fallback', 'raced'])).toMatch(/^Resolve 2 markers .*\(1 of them mark sites that still send server→client requests, .*; the others ask you to confirm what the port decided\)\.$/);
    expect(text(['raced', 'not-awaited'])).toMatch(/^Resolve 2 markers .*\(those sites still send server→client requests, which 2026-07-28 clients do not answer\)\.$/);
    // an unknown reason (a marker written by hand or by a newer version) is never taken for a review note
    expect(text(['capability-fallback', 'made-up'])).toMatch(/^Resolve 2 markers .*1 of them/);
  });

  it('failures and a helper that differs come first', () => {
    const steps = ids({
      files: [{ file: 'src/a.ts', status: 'failed', error: 'x', v1Migrated: false, sites: 1, markers: 0, codemodMarkers: 0 }],
      helpers: [{ ...FLOW_HELPERS[2], status: 'differs' }],
    });
    expect(steps.slice(0, 2)).toEqual(['fix-failures', 'check-helpers']);
  });
});

describe('legacyTransportsIn', () => {
  it('finds transports a server is connected to by hand, not mentions or hosted entry points', () => {
    expect(legacyTransportsIn(`await server.connect(new StdioServerTransport());`)).toEqual(['StdioServerTransport']);
    expect(legacyTransportsIn(`const t = new NodeStreamableHTTPServerTransport({}); await s.connect(t); new SSEServerTransport('/m', res);`)).toEqual(['NodeStreamableHTTPServerTransport', 'SSEServerTransport']);
    expect(legacyTransportsIn(`serveStdio(() => build()); // not new StdioServerTransport()`)).toEqual([]);
    expect(legacyTransportsIn(`createMcpHandler(() => build());`)).toEqual([]);
  });
});
