/**
 * A `port` run in its own process, for the tests that kill it (runner-kill.test.ts): the real runner,
 * reads and writes, with the stand-in analyzer and transform (fakes.ts) so a run takes milliseconds.
 * Prints `swap <file>` right before each file is swapped into place, so the parent can strike during
 * the write phase, and `done <files as JSON>` at the end. With MRTR_CHILD_HANDSHAKE=1 it then waits for a
 * byte on stdin before the swap, so a strike lands exactly there however loaded the machine is (without
 * it, a child could finish before the parent read the line).
 *
 * Usage: node --import tsx test/port/port-child.ts <cwd> [paths...]
 * (runner-kill.test.ts runs its compiled copy: test/compiled.ts)
 */
import { readSync } from 'node:fs';
import { runPort } from '../../src/port/index.js';
import { fakeDependencies } from './fakes.js';

const [cwd, ...paths] = process.argv.slice(2);
const handshake = process.env.MRTR_CHILD_HANDSHAKE === '1';
const result = await runPort({
  cwd,
  paths: paths.length > 0 ? paths : ['.'],
  dependencies: fakeDependencies(),
  beforeSwap: (file) => {
    process.stdout.write(`swap ${file}\n`);
    if (handshake) readSync(0, Buffer.alloc(1));
  },
});
process.stdout.write(`done ${JSON.stringify(result.files)}\n`);
