/** Where a CLI run writes, and the exit code it ends with: real streams in main, buffers in tests. */
export interface CliIo {
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Is stderr a terminal? Progress is shown only then. */
  stderrIsTTY: boolean;
  exitCode: number;
  /**
   * Resolves once everything written to stdout is out; rejects with the first write error (EPIPE from
   * a closed pipe such as `| head`, ENOSPC on a full disk), so the run can end with exit 2 and one line.
   */
  flush?(): Promise<void>;
}

export function processIo(): CliIo {
  let failure: Error | undefined;
  const note = (error: Error | null | undefined) => {
    if (error) failure ??= error;
  };
  // without a listener a write error would be thrown as an uncaught exception, stack and all
  process.stdout.on('error', note);
  process.stderr.on('error', () => {}); // nowhere left to tell
  return {
    cwd: process.cwd(),
    stdout: (text) => {
      if (failure === undefined) process.stdout.write(text, note);
    },
    stderr: (text) => void process.stderr.write(text),
    stderrIsTTY: process.stderr.isTTY === true,
    exitCode: 0,
    flush: () =>
      new Promise<void>((resolve, reject) => {
        if (failure) return reject(failure);
        // an empty write's callback runs after every earlier write completed (or the stream failed)
        process.stdout.write('', (error) => (failure || error ? reject(failure ?? error) : resolve()));
      }),
  };
}
