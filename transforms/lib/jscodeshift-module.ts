/**
 * Runs the port as a jscodeshift module (`npx jscodeshift -t transforms/<id>.ts --parser ts file.ts`):
 * the same in-process pipeline the runner calls, limited to one concern, with markers inserted. The
 * plan is made by analyzing the file alone (helpers in other files are not followed: use
 * `mrtr-port port` for a project). Returns undefined when nothing changed (jscodeshift counts the file
 * as unmodified, and nothing is rewritten with different formatting).
 */
import type { EnabledTransforms, PortOptions } from './context.js';
import { applyPortFile, defaultContinuationImport } from './port-file.js';

export interface FileInfo {
  path: string;
  source: string;
}

/** jscodeshift passes CLI flags through: `--codec sdk --roots ask --continuationImport ./x.js --flowImport ./y.js --module cjs`. */
export function runAsJscodeshift(file: FileInfo, flags: Record<string, unknown>, enabled: EnabledTransforms): string | undefined {
  const output = applyPortFile({ source: file.source, path: file.path, options: optionsFromFlags(file, flags) }, enabled);
  return output === file.source ? undefined : output;
}

function optionsFromFlags(file: FileInfo, flags: Record<string, unknown>): PortOptions {
  return {
    codec: flags.codec === 'sdk' ? 'sdk' : 'aead',
    roots: flags.roots === 'ask' ? 'ask' : 'config',
    continuationImport: typeof flags.continuationImport === 'string' ? flags.continuationImport : defaultContinuationImport(file.source),
    ...(typeof flags.flowImport === 'string' ? { flowImport: flags.flowImport } : {}),
    ...(flags.module === 'cjs' || flags.module === 'esm' ? { module: flags.module } : {}),
  };
}
