/**
 * The example projects must be real code: each type-checks, as `tsc --noEmit -p fixtures/projects/<name>`
 * would, against the SDK packages installed at the repo root (found by walking up from the project).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from '../../src/typescript.cjs';
import { describe, expect, it } from 'vitest';
import { PROJECTS } from './helpers.js';
import { typeCheckProject } from '../perf/shared-source-files.js';

const projects = readdirSync(PROJECTS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

describe('fixtures/projects type-check against the installed SDKs', () => {
  it('has the projects the README and the tests use', () => {
    expect(projects).toEqual(expect.arrayContaining(['clean', 'notes-v1', 'notes-v2']));
  });

  it.each(projects)('%s: tsc --noEmit reports no error', (name) => {
    const dir = path.join(PROJECTS, name);
    const errors = typeCheckProject(dir);
    expect(errors).toEqual([]);
  });

  it.each(projects)('%s: compiles strict, and its files are the ones in src/', (name) => {
    const parsed = ts.getParsedCommandLineOfConfigFile(path.join(PROJECTS, name, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    expect(parsed?.options.strict).toBe(true);
    expect(parsed?.fileNames.length).toBeGreaterThan(1);
    expect(parsed?.fileNames.every((f) => f.includes(`/${name}/src/`))).toBe(true);
  });
});
