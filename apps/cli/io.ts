// Where a command writes: stdout for what a user pipes (a report, a key), stderr for progress and
// diagnostics. Tests pass their own to capture both.
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Exact bytes to stdout (a report), nothing added. */
  write(text: string): void;
  /** Writes a usage error and answers its exit code (2). */
  usage(text: string): 2;
}

export const processIo: Io = {
  out: (text) => void process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
  err: (text) => void process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
  write: (text) => void process.stdout.write(text),
  usage(text) {
    process.stderr.write(`${text}\n`);
    return 2;
  },
};

/** Collects what a command writes (tests). */
export function bufferIo(): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (text) => void stdout.push(text),
    err: (text) => void stderr.push(text),
    write: (text) => void stdout.push(text),
    usage(text) {
      stderr.push(text);
      return 2;
    },
  };
}
