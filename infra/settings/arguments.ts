// The command-line arguments of an app's process (`npm run api|worker [-- args]`), refused one way
// for all: an argument the app does not take is a setting the user must change (exit 2), said in
// one line with what it takes, rather than ignored.
import { ExitError, SETTING_EXIT_CODE } from "./processExit.js";

/** `unknown argument "--bogus": <what the app takes>`. */
export function unknownArgumentLine(arg: string, takes: string): string {
  return `unknown argument ${JSON.stringify(arg)}: ${takes}`;
}

/** Refuses (ExitError, exit 2) the first argument, for an app that takes none; `takes` says how it is configured instead. */
export function refuseArguments(argv: readonly string[], takes: string): void {
  if (argv.length > 0) throw new ExitError(unknownArgumentLine(argv[0], takes), SETTING_EXIT_CODE);
}

/** Whether the arguments ask for the app's usage (`-h`, `--help`): printed to stdout, exit 0, before anything is opened. */
export function helpAsked(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === "-h" || arg === "--help");
}
