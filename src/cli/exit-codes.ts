/**
 * Exit codes of every `mrtr-port` command, as eslint and knip use them (docs/cli.md has the table):
 * scripts and CI read them, so they are part of the public contract.
 */
export const EXIT_CODES = {
  /** Nothing to report (`check`), or a report was printed (`analyze`). */
  ok: 0,
  /** `check`: legacy sites still to port, markers left, or a file that could not be parsed. */
  findings: 1,
  /** Bad arguments, a named path missing or holding no source file, an unusable report path, a report that could not be written. */
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

/**
 * The report could not be delivered (stdout closed or full, the report file unwritable): one line,
 * no stack, exit 2, so a script never takes a lost report for findings.
 */
export class OutputError extends Error {
  readonly exitCode = EXIT_CODES.usage;
  constructor(where: string, cause: unknown) {
    super(`cannot write the report to ${where}: ${describeWriteError(cause)}`);
    this.name = 'OutputError';
  }
}

const WRITE_ERRORS: Readonly<Record<string, string>> = {
  EPIPE: 'the reading end of the pipe was closed',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EISDIR: 'is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  EIO: 'input/output error',
};

function describeWriteError(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code && WRITE_ERRORS[code]) return `${code} (${WRITE_ERRORS[code]})`;
  return code ?? (cause instanceof Error ? cause.message : String(cause));
}
