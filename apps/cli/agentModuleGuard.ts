// `verdict run --agent module:FILE` runs the user's module in this process, so what it does to the
// process is the run's to answer for. While it is loaded (from its import until the CLI exits):
// - process.exit(n) from it (at import, or in a replay) ended the run with exit n, no report and
//   no word: a CI gate read green with nothing run. process.exit is not stubbed (the module asked
//   to stop, and stopping is right); it is only noted (a pass-through wrapper), and the `exit`
//   event (which Node emits before the process ends, and whose listener may set the exit code)
//   turns it into exit 2 during the import (as any module that cannot load) or exit 1 during the
//   run, with one line naming --agent and the file. After the command has answered, its own code
//   stands, whatever the module exits with.
// - an unhandled rejection or a throw in a timer from it (an unawaited telemetry flush) killed the
//   run with Node's stack trace and exit 1, no report. They are said on one line naming the
//   module, and the run goes on: the replays are awaited by the Runner, so such an error belongs to
//   no pair, and the module, not Verdict, left it unhandled. (Verdict's own code awaits all it
//   starts during a run, so this catches nothing of Verdict's in practice.)
// - its stdout writes (console.log, process.stdout.write) went into the report when the report
//   goes to stdout: `--format json > file` could not be parsed. They go to stderr then; the
//   report is written through stdout's own write (writeReport).
import { thrownText } from "@verdict/domain";

type Write = typeof process.stdout.write;

export interface AgentModuleGuard {
  /** The module is imported: a process.exit from now on ends the run (exit 1), not the import (2). */
  loaded(): void;
  /** Calls `write` (which writes the report to stdout synchronously) with stdout's own write. */
  writeReport<T>(write: () => T): T;
  /** The command answered `code`: the process exits with it, whatever the module calls. */
  finish(code: number): void;
}

/**
 * Guards the process for the module `--agent <spec>` names (`file`); `routeStdout` when the
 * report goes to stdout. `redact` hides the provider keys in what is said of the module's errors.
 */
export function guardAgentModule(spec: string, file: string, routeStdout: boolean, redact: (text: string) => string): AgentModuleGuard {
  let phase: "import" | "run" | "done" = "import";
  let finalCode = 0;
  let exitCalled: number | null = null;
  const originalExit = process.exit;
  process.exit = ((code?: number | string | null) => {
    if (phase !== "done") exitCalled ??= Number(code ?? process.exitCode ?? 0);
    return originalExit.call(process, code as number);
  }) as typeof process.exit;
  process.on("exit", (code) => {
    if (phase === "done") {
      // Never a success the command did not answer (the module's process.exit(0) past a missed gate).
      if ((process.exitCode ?? 0) === 0) process.exitCode = finalCode;
      return;
    }
    const how = exitCalled === null ? `the process ended (exit ${code})` : `called process.exit(${exitCalled})`;
    const where = phase === "import" ? "while it was imported; nothing ran" : "before the run finished; no report was written";
    process.stderr.write(`verdict run: --agent ${spec}: the agent module ${file} ${how} ${where}\n`);
    process.exitCode = phase === "import" ? 2 : 1;
  });
  const stray = (kind: string) => (error: unknown) => {
    // Never throws (String() does for an object without a prototype: the guard crashed the run).
    const text = thrownText(error);
    process.stderr.write(`verdict run: --agent ${spec}: the agent module ${file} left ${kind}: ${redact(text.split("\n")[0])} (the run goes on; it is in no pair's record)\n`);
  };
  process.on("unhandledRejection", stray("a promise rejection unhandled"));
  process.on("uncaughtException", stray("an exception uncaught (thrown in a timer or callback)"));
  const stdoutWrite = process.stdout.write;
  let passThrough = false;
  if (routeStdout) {
    process.stdout.write = function (this: unknown, ...args: Parameters<Write>) {
      return passThrough ? stdoutWrite.apply(process.stdout, args) : process.stderr.write(...(args as Parameters<Write>));
    } as Write;
  }
  return {
    loaded: () => {
      if (phase === "import") phase = "run";
    },
    writeReport(write) {
      passThrough = true;
      try {
        return write();
      } finally {
        passThrough = false;
      }
    },
    finish(code) {
      phase = "done";
      finalCode = code;
    },
  };
}
