#!/usr/bin/env -S npx tsx
// `verdict` (`npm start` runs `verdict start` from a bundle of this file, scripts/start.mjs): see
// usage.ts for the commands and environment. From source, under tsx, commands that load the API
// re-run this file once with tsx reading apps/api/tsconfig.json, which turns on the
// experimentalDecorators type-graphql's resolvers need (tsx applies a tsconfig only to the files
// it includes, so it must be the API's own).
import { ensureDecoratorTsconfig } from "@verdict/api/decoratorTsconfig";
import { needsDecorators, runCli } from "./cli.js";
import { processIo } from "./io.js";
import { errorText } from "./outputFile.js";

const argv = process.argv.slice(2);

// `verdict report ... | head` closes the pipe early; that is not an error. `verdict start | head`
// closing it mid-run is a reader gone: the start stops as Ctrl-C stops it (exit 1 unless its run
// had finished), where it exited 0 at once and a pipeline saw success; it says so on stderr, as
// what it says of the stop goes to the closed stdout.
// `run` and `keys create` await their stdout write and answer a reader gone themselves: run still
// owes its gate and run-failure verdict (`| head -1` exited 0 past a failed gate), and a key that
// was never delivered is revoked (`| true` left a live key nobody held).
// Any other failed write (ENOSPC, EIO: `> /dev/full`) threw here, a raw stack trace: a command
// that writes a document awaits io.write and says so itself (`verdict run: stdout: could not
// write the report (…)`, exit 1); one that did not, and would exit 0, gets one line and exit 1.
const answersItsStdout = argv[0] === "run" || (argv[0] === "keys" && argv[1] === "create");
let readerGone = false;
let stdoutFailed: NodeJS.ErrnoException | null = null;
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") {
    stdoutFailed ??= error;
    return;
  }
  if (answersItsStdout) return;
  if (argv[0] !== "start") process.exit(process.exitCode ?? 0);
  if (!readerGone) {
    process.stderr.write("verdict start: stdout was closed (its reader is gone): stopping as Ctrl-C stops it\n");
    process.kill(process.pid, "SIGINT");
  }
  readerGone = true;
});
// Progress and diagnostics are best-effort: a closed stderr (`2>&1 | head -1`) threw an uncaught
// EPIPE from a progress line and killed `verdict run` mid-run, its report never written.
process.stderr.on("error", () => undefined);
// At exit, as the error may be emitted after the command answered.
process.on("exit", () => {
  if (!stdoutFailed || (process.exitCode ?? 0) !== 0) return;
  process.stderr.write(`verdict: stdout: could not write (${errorText(stdoutFailed)})\n`);
  process.exitCode = 1;
});
/** Settles once what `stream` was given has been handed to the OS (an empty write is queued behind it); at once when it is closed. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded || stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => void stream.write("", () => resolve()));
}

// `run` exits once it has answered, its report written and its gate said, stdout and stderr
// flushed: an agent module (--agent module:) runs in this process, and one that left a handle
// open (a token refresher's setInterval, a pool, a 10-minute setTimeout) kept the process alive
// forever after the gate line, a CI job hung with its verdict lost. Other commands run no user
// code and end when their work does.
const exitsWhenAnswered = argv[0] === "run";
async function answered(code: number): Promise<void> {
  process.exitCode = code;
  if (!exitsWhenAnswered) return;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  // A write's error is emitted a tick after its callback: seen by the handlers above before exiting.
  setImmediate(() => process.exit(code));
}
if (!needsDecorators(argv) || ensureDecoratorTsconfig()) {
  runCli(argv, processIo).then(answered, (error: unknown) => {
    console.error(error);
    return answered(1);
  });
}
