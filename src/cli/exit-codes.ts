/**
 * Exit codes of every `mrtr-port` command, as eslint and knip use them (docs/cli.md has the table):
 * scripts and CI read them, so they are part of the public contract.
 */
export const EXIT_CODES = {
  /** Nothing to report (`check`), or a report was printed (`analyze`). */
  ok: 0,
  /** `check`: legacy sites still to port, markers left, or a file that could not be parsed. */
  findings: 1,
  /** Bad arguments, a named path missing or holding no source file. */
  usage: 2,
  /** An unexpected failure inside mrtr-port (message on stderr; stack with `--verbose`). */
  internal: 2,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** A problem with what the user asked for: printed as one line, no stack, exit 2. */
export class UsageError extends Error {
  readonly exitCode = EXIT_CODES.usage;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
