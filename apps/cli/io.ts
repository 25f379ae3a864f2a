// Where a command writes: stdout for what a user pipes (a report, a key), stderr for progress and
// diagnostics. Tests pass their own to capture both.
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /**
   * Exact bytes to stdout (a report), nothing added; settles once they are written, rejecting
   * with the write's error (ENOSPC, EIO): a command says so before it says anything of the report.
   */
  write(text: string): Promise<void>;
  /** Writes a usage error and answers its exit code (2). */
  usage(text: string): 2;
}

// Characters a terminal acts on rather than shows: C0 controls but tab and newline, DEL, C1
// controls, and the bidirectional overrides and isolates that reorder what follows them.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A message line as a terminal should show it: every control character written as its `\u`
 * escape. A key or a name in a message is the user's text, and a catalog key holding ESC [2J or
 * a right-to-left override cleared the screen or hid what an import was about to change.
 */
function terminalText(text: string): string {
  return text.replace(TERMINAL_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const line = (text: string): string => terminalText(text.endsWith("\n") ? text : `${text}\n`);

// out, err and usage carry messages; write carries a document's exact bytes (a report, a
// catalog), which a user pipes to a file, untouched.
export const processIo: Io = {
  out: (text) => void process.stdout.write(line(text)),
  err: (text) => void process.stderr.write(line(text)),
  write: (text) => new Promise<void>((resolve, reject) => void process.stdout.write(text, (error) => (error ? reject(error) : resolve()))),
  usage(text) {
    process.stderr.write(line(text));
    return 2;
  },
};

/** Collects what a command writes (tests), as processIo would show it, less the added newlines. */
export function bufferIo(): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (text) => void stdout.push(terminalText(text)),
    err: (text) => void stderr.push(terminalText(text)),
    write: async (text) => void stdout.push(text),
    usage(text) {
      stderr.push(terminalText(text));
      return 2;
    },
  };
}
