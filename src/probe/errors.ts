/** The two ways a probe run ends without a verdict (exit 2): bad arguments, or a server it cannot talk to. */

/** Something wrong with what the user asked for: a bad URL, JSON, header, call or option. */
export class ProbeUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProbeUsageError';
  }
}

/** A target or replica that does not answer, or does not speak MCP 2026-07-28 over Streamable HTTP. */
export class ProbeUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProbeUnreachableError';
  }
}
