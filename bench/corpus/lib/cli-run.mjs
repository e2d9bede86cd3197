// Runs this checkout's mrtr-port CLI (from source, through tsx) on a scratch tree, timing it and
// reading its peak RSS through rss-probe.mjs. The JSON report goes to a file, never through a pipe.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CHECKOUT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = `${CHECKOUT}src/cli/main.ts`;
const TSX = import.meta.resolve('tsx');
const PROBE = pathToFileURL(fileURLToPath(new URL('../rss-probe.mjs', import.meta.url))).href;
const TIMEOUT_MS = Number(process.env.MRTR_CORPUS_TIMEOUT_MS ?? 600_000);

/**
 * `mrtr-port <args> --format json -o <report>` with cwd = `tree`. Returns the exit code, the parsed
 * report (null when none was written), seconds, peak RSS in MiB and stderr's last lines.
 */
export function runCli(args, tree, report) {
  const rssFile = `${report}.rss`;
  rmSync(report, { force: true });
  rmSync(rssFile, { force: true });
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', TSX, '--import', PROBE, MAIN, ...args, '--format', 'json', '--output-file', report], {
    cwd: tree,
    env: { ...process.env, MRTR_CORPUS_RSS_FILE: rssFile, NODE_OPTIONS: '' },
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    maxBuffer: 1 << 28,
  });
  const seconds = (performance.now() - t0) / 1000;
  const rssMiB = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) / 1024 : null;
  let json = null;
  let parseError = null;
  if (existsSync(report)) {
    try {
      json = JSON.parse(readFileSync(report, 'utf8'));
    } catch (e) {
      parseError = `report is not JSON: ${e.message}`;
    }
  }
  const stderr = (r.stderr ?? '').trim().split('\n').slice(-5).join('\n');
  const error = r.error ? `${r.error.code === 'ETIMEDOUT' ? `timed out after ${TIMEOUT_MS / 1000} s` : r.error.message}` : parseError;
  return { code: r.status, signal: r.signal, json, seconds, rssMiB, stderr, error };
}
