// How an app's process (`npm run api|worker|projector`) ends when its start fails, one way for
// all: a setting the user must change (a variable missing or malformed, a file one names that
// cannot be used, a taken port) is one line naming it and the rule, no stack trace, and exit 2,
// as `verdict` exits on a usage error; anything else (a database it cannot reach, a crash) is 1,
// so a supervisor can tell "fix the configuration" from "try again".
import { SettingError } from "./wholeNumber.js";

/** The exit code of a setting the user must change. */
export const SETTING_EXIT_CODE = 2;

/** An error main ends the process with, by its own exit code (a setting the user must change: 2). */
export class ExitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** The code a process ends with for `error`: an ExitError's own, a SettingError's 2, anything else 1. */
export function processExitCode(error: unknown): number {
  if (error instanceof ExitError) return error.exitCode;
  if (error instanceof SettingError) return SETTING_EXIT_CODE;
  return 1;
}

/** Ends the process for `error`: its message as one line through `log` (the app's own prefix), then its exit code. */
export function exitFor(error: unknown, log: (line: string) => void = console.error): never {
  log(error instanceof Error ? error.message : String(error));
  process.exit(processExitCode(error));
}
