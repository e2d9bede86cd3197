/**
 * The real transform's port of an e2e fixture, made once per suite run and read by every test file that
 * needs it. Six isolated test files (scenarios, attacks ×2, legacy shim, type-check, idempotence, the
 * probe's e2e test) port the same 25 fixtures; each port plans the file with the type checker, and each
 * fresh process first parses the SDK's, zod's and Node's declarations (3–10 s of CPU on the loaded
 * machine) before its first port.
 *
 * Entries live in the compiled tree's folder (test/global-setup.ts), whose name is the hash of src/,
 * transforms/ and test/: a change to the tool or the harness makes a new folder. An entry's name adds
 * the codec and the hash of the fixture's text. The first process to need an entry takes its lock file
 * (O_EXCL, holding its pid) and ports; the others wait for the entry to appear, or take over when the
 * holder's process is gone.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/** How often a waiting process checks that the lock holder still lives (the entry's arrival wakes it at once). */
const HOLDER_CHECK_MS = 2_000;

function cacheDir(): string {
  const dir = join(inject('compiledRoot'), 'e2e-ports');
  mkdirSync(dir, { recursive: true });
  return dir;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `port()`'s result for this key, computed by the first process to ask during this run. */
export async function sharedPort(key: { name: string; codec: string; input: string }, port: () => string): Promise<string> {
  const dir = cacheDir();
  const base = `${key.name}.${key.codec}.${createHash('sha1').update(key.input).digest('hex').slice(0, 12)}`;
  const entry = join(dir, `${base}.ts`);
  const lock = join(dir, `${base}.lock`);
  for (;;) {
    if (existsSync(entry)) return readFileSync(entry, 'utf8');
    let fd: number;
    try {
      fd = openSync(lock, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      await holderDone(dir, entry, lock);
      continue;
    }
    try {
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      const text = port();
      writeFileSync(`${entry}.${process.pid}`, text);
      renameSync(`${entry}.${process.pid}`, entry);
      return text;
    } finally {
      rmSync(lock, { force: true });
    }
  }
}

/** Resolves when the entry exists, the lock is gone, or its holder's process has died (then the lock is removed). */
function holderDone(dir: string, entry: string, lock: string): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (existsSync(entry)) return finish();
      let pid: number;
      try {
        pid = Number(readFileSync(lock, 'utf8'));
      } catch {
        return finish(); // the lock is gone
      }
      // a lock without a pid yet is being written: its holder is alive
      if (pid > 0 && !alive(pid)) {
        rmSync(lock, { force: true });
        finish();
      }
    };
    const watcher = watch(dir, check);
    const timer = setInterval(check, HOLDER_CHECK_MS);
    function finish(): void {
      watcher.close();
      clearInterval(timer);
      resolve();
    }
    check();
  });
}
