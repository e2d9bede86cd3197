/**
 * A legacy server package taken through the whole path a user takes: copied from `fixtures/packages/`,
 * ported by the real CLI (`mrtr-port port`, as `bin` runs it), then run as processes. The legacy original
 * serves stdio, one process, 2025 era; the port runs as replica processes behind createMcpHandler
 * (`replica-launcher.mjs`), 2026 era. Both are driven by the real @modelcontextprotocol/client.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { compiledScript } from '../compiled.js';
import { compileTypeScript } from '../compile-typescript.js';
import { makeClient, REPO_ROOT, roundRobinFetch, whenListening, type AnswerScript, type AskCounts, type Replica, type RoutedRequest } from '../e2e/harness.js';

const LAUNCHER = fileURLToPath(new URL('./replica-launcher.mjs', import.meta.url));
const REPLICA_START_TIMEOUT_MS = 180_000;
/** A CLI port and a dozen node processes: minutes when the suite loads the machine (only a hang should hit this). */
export const SETUP_TIMEOUT_MS = 600_000;

export interface PackageCopy {
  readonly dir: string;
  remove(): void;
}

/**
 * A copy of `fixtures/packages/<name>` (or of the package tree at `from`, e.g. one already ported) in a
 * temp dir, its node_modules a symlink to this repository's.
 */
export function copyPackage(name: string, from: string = join(REPO_ROOT, 'fixtures/packages', name)): PackageCopy {
  const dir = mkdtempSync(join(tmpdir(), `mrtr-pkg-${name}-`));
  cpSync(from, dir, { recursive: true, filter: (source) => source !== join(from, 'node_modules') });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The JSON report of `mrtr-port port` (docs/port.md "JSON output"), the parts these tests read. */
export interface PortReport {
  files: { file: string; status: string; sites: number; markers: number }[];
  helpers: { file: string; status: string; importedBy: string[] }[];
  manifests: { file: string; status: string; added?: Record<string, string>; removed?: string[] }[];
  summary: { changed: number; failed: number; markers: number };
  nextSteps: { id: string; text: string; files?: string[] }[];
}

export interface CliRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the real CLI in `cwd` (asynchronously, so copies can be ported side by side): compiled to plain
 * JavaScript as `bin` runs it (test/compiled.ts), not under tsx, whose loader costs each run 0.3–2 s of CPU.
 */
export function runCli(cwd: string, args: readonly string[]): Promise<CliRun> {
  return runNode(cwd, [compiledScript('src/cli/main.ts'), ...args]);
}

/** `node <args>` in `cwd`: its exit code and output, never a rejection. */
export function runNode(cwd: string, args: readonly string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ exitCode: code, stdout, stderr });
    });
  });
}

/** `mrtr-port port . --format json <extra>` in the copy: the exit code and the parsed report. */
export async function portPackage(dir: string, extra: readonly string[] = []): Promise<CliRun & { report: PortReport }> {
  const run = await runCli(dir, ['port', '.', '--format', 'json', ...extra]);
  let report: PortReport;
  try {
    report = JSON.parse(run.stdout) as PortReport;
  } catch {
    throw new Error(`mrtr-port port exited ${run.exitCode} without a JSON report:\n${run.stdout}\n${run.stderr}`);
  }
  return { ...run, report };
}

export interface PackageReplicaOptions {
  /** Absolute path of the module exporting the server factory. */
  readonly serverFile: string;
  readonly factory: string;
  readonly modules: 'esm' | 'cjs';
  readonly env: Record<string, string>;
}

export interface PackageReplica extends Replica {
  /** The process, for tests that kill it. */
  readonly process: ChildProcess;
}

/**
 * A TypeScript package's `src/` as JavaScript under `<dir>/js/` (same names, `.js`), compiled as tsx
 * compiles each module it loads (test/compile-typescript.ts), so its replicas start in plain Node: tsx's
 * loader cost each replica 0.3–2 s of CPU. The copy's package.json (`type`) and node_modules apply to
 * `js/` as to `src/`. Returns the compiled path of a source file (`server.ts` → `<dir>/js/server.js`).
 */
export function compileSourcesForNode(dir: string): (file: string) => string {
  const src = join(dir, 'src');
  const out = join(dir, 'js');
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => /\.[cm]?ts$/.test(f) && !f.endsWith('.d.ts'))) {
    const to = join(out, file.replace(/ts$/, 'js'));
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, compileTypeScript(readFileSync(join(src, file), 'utf8'), join(src, file)));
  }
  return (file) => join(out, file.replace(/ts$/, 'js'));
}

/** Starts one replica process of a ported package; resolves once it listens. */
export function startPackageReplica(name: string, options: PackageReplicaOptions): Promise<PackageReplica> {
  const child = spawn(process.execPath, [LAUNCHER], {
    cwd: REPO_ROOT, // the package's own imports resolve from its files
    env: {
      ...process.env,
      ...options.env,
      PACKAGE_SERVER: options.serverFile,
      PACKAGE_FACTORY: options.factory,
      PACKAGE_MODULES: options.modules,
    },
    stdio: ['pipe', 'pipe', 'pipe'], // stdin is the replica's lifeline to this process
  });
  return whenListening(child, name, REPLICA_START_TIMEOUT_MS);
}

/** One JSON line per business event, as the fixture packages write them. */
export interface LedgerEntry {
  readonly kind: string;
  readonly detail: Record<string, unknown>;
}

export function readLedger(file: string): LedgerEntry[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as LedgerEntry);
}

export function emptyFile(file: string): string {
  writeFileSync(file, '');
  return file;
}

export interface PackageRun<T> {
  readonly result: T;
  readonly asks: AskCounts;
}

/**
 * The legacy package as its users run it: its stdio entry in one `node` process (2025 era), the client
 * answering its push requests.
 */
export async function runLegacyStdio<T>(
  options: { dir: string; entry: string; env: Record<string, string> },
  script: AnswerScript,
  act: (client: Client) => Promise<T>,
): Promise<PackageRun<T>> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(options.dir, options.entry)],
    cwd: options.dir,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stderr: 'pipe',
  });
  const { client, asks } = makeClient(script, 'legacy');
  await client.connect(transport);
  try {
    return { result: await act(client), asks };
  } finally {
    await client.close();
  }
}

/** The ported package, 2026 era, every HTTP request sent to the next replica in turn. */
export async function runOnReplicas<T>(
  replicas: readonly Replica[],
  script: AnswerScript,
  act: (client: Client) => Promise<T>,
): Promise<PackageRun<T> & { routed: RoutedRequest[]; era: string | undefined }> {
  const { fetch: routedFetch, routed } = roundRobinFetch(replicas);
  const { client, asks } = makeClient(script, 'modern');
  await client.connect(new StreamableHTTPClientTransport(new URL(replicas[0].url('mcp')), { fetch: routedFetch }));
  try {
    const era = client.getProtocolEra();
    return { result: await act(client), asks, routed, era };
  } finally {
    await client.close();
  }
}

/** The call rounds of a routed run (the JSON-RPC requests of the call itself, without the handshake). */
export function callRounds(routed: readonly RoutedRequest[]): RoutedRequest[] {
  return routed.filter((r) => r.method === 'tools/call' || r.method === 'prompts/get' || r.method === 'resources/read');
}
