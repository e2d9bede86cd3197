/**
 * The ported fixture servers compile under `strict`, `noUnusedLocals` and `noUnusedParameters` (as many
 * servers build: a name the port leaves unread breaks them) against @modelcontextprotocol/server 2.4.0 together
 * with the runtime file `port` writes next to them, as a user's project would compile them; so do the
 * legacy originals. One program for all (speed).
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictDiagnostics } from './strict-diagnostics.js';
import { FIXTURES } from './fixtures.js';
import { fixturePath, portSource, preparePortedSet, type PortedSet } from './harness.js';

let set: PortedSet;

beforeAll(async () => {
  set = await preparePortedSet(FIXTURES.map((f) => f.name));
  for (const { name } of FIXTURES) copyFileSync(fixturePath(name, 'input'), join(set.dir, `${name}.input.ts`));
});

afterAll(() => set?.remove());

describe(`ported servers (ported by: ${portSource()})`, () => {
  it('type-check with strict, noUnusedLocals and noUnusedParameters, next to the runtime file, as do the legacy originals', () => {
    const roots = FIXTURES.flatMap(({ name }) => [join(set.dir, `${name}.input.ts`), join(set.dir, `${name}.ported.ts`)]);
    const diagnostics = strictDiagnostics(set.dir, roots);
    expect(diagnostics).toEqual([]);
  });
});
