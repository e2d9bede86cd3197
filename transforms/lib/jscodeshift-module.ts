/**
 * Runs the port as a jscodeshift module (`npx jscodeshift -t transforms/<id>.ts --parser ts file.ts`):
 * the same in-process pipeline the runner calls, limited to one concern, with markers inserted.
 * Returns undefined when nothing changed (jscodeshift counts the file as unmodified, and nothing is
 * rewritten with different formatting).
 */
import type { EnabledTransforms, PortOptions } from './context.js';
import { applyPortSourceWith, defaultContinuationImport } from './pipeline.js';

export interface FileInfo {
  path: string;
  source: string;
}

/** jscodeshift passes CLI flags through: `--codec sdk --roots ask --continuationImport ./x.js`. */
export function runAsJscodeshift(file: FileInfo, flags: Record<string, unknown>, enabled: EnabledTransforms): string | undefined {
  const options: PortOptions = {
    codec: flags.codec === 'sdk' ? 'sdk' : 'aead',
    roots: flags.roots === 'ask' ? 'ask' : 'config',
    continuationImport: typeof flags.continuationImport === 'string' ? flags.continuationImport : defaultContinuationImport(file.source),
  };
  const output = applyPortSourceWith({ source: file.source, path: file.path, options }, enabled);
  return output === file.source ? undefined : output;
}
