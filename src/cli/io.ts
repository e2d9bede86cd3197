/** Where a CLI run writes, and the exit code it ends with: real streams in main, buffers in tests. */
export interface CliIo {
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Is stderr a terminal? Progress is shown only then. */
  stderrIsTTY: boolean;
  exitCode: number;
}

export function processIo(): CliIo {
  return {
    cwd: process.cwd(),
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stderrIsTTY: process.stderr.isTTY === true,
    exitCode: 0,
  };
}
