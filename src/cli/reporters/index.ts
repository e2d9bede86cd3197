/** The output formats, by `--format` name. */
import type { Reporter } from './context.js';
import { githubReporter } from './github.js';
import { jsonReporter } from './json.js';
import { sarifReporter } from './sarif.js';
import { textReporter } from './text.js';

export const REPORTERS = {
  text: textReporter,
  json: jsonReporter,
  sarif: sarifReporter,
  github: githubReporter,
} as const satisfies Record<string, Reporter>;

export type OutputFormat = keyof typeof REPORTERS;

export const OUTPUT_FORMATS = Object.keys(REPORTERS) as OutputFormat[];

export function isOutputFormat(value: string): value is OutputFormat {
  return Object.prototype.hasOwnProperty.call(REPORTERS, value);
}
