// The `verdict` command's dispatcher: the subcommand path picks a handler; every handler answers
// an exit code, and any error becomes a message on stderr and its code (2 for bad input).
import { CliError, EXIT, exitCodeOf, isNotFound, type ExitCode } from "./errors.js";
import type { Io } from "./io.js";
import { commandUsage, isCommandName, USAGE, VERSION_USAGE } from "./usage.js";
import { verdictVersion } from "./version.js";

type Handler = (argv: readonly string[], io: Io, env: NodeJS.ProcessEnv) => Promise<ExitCode>;

const COMMANDS: Record<string, Handler> = {
  run: async (argv, io, env) => (await import("./runCommand.js")).runCommand(argv, io, env),
  start: async (argv, io, env) => (await import("./start.js")).startCommand(argv, io, env),
  report: async (argv, io, env) => (await import("./reportCommand.js")).reportCommand(argv, io, env),
  "catalogs import": async (argv, io, env) => (await import("./catalogsCommand.js")).catalogsImport(argv, io, env),
  "catalogs export": async (argv, io, env) => (await import("./catalogsCommand.js")).catalogsExport(argv, io, env),
  "evals report": async (argv, io, env) => (await import("./reportCommand.js")).reportCommand(argv, io, env),
  "evals import": async (argv, io, env) => (await import("./evalsCommand.js")).evalsImport(argv, io, env),
  "evals clear-kpis": async (argv, io, env) => (await import("./kpisCommand.js")).evalsClearKpis(argv, io, env),
  "keys create": async (argv, io, env) => (await import("./keysCommand.js")).keysCreate(argv, io, env),
  "keys list": async (argv, io, env) => (await import("./keysCommand.js")).keysList(argv, io, env),
  "keys revoke": async (argv, io, env) => (await import("./keysCommand.js")).keysRevoke(argv, io, env),
};

/** The commands that read what a home holds: only their "not found" may be the home's doing. */
const HOME_READERS = ["report", "evals report", "catalogs export", "evals import", "evals clear-kpis"];

/** Command names of two words: the first alone names no command. */
const GROUPS = ["catalogs", "evals", "keys"];

/** Which handler an argv names, and the arguments left for it. */
export function resolveCommand(argv: readonly string[]): { name: string; rest: readonly string[] } | null {
  const two = argv.slice(0, 2).join(" ");
  if (COMMANDS[two]) return { name: two, rest: argv.slice(2) };
  if (argv[0] && COMMANDS[argv[0]] && !GROUPS.includes(argv[0])) return { name: argv[0], rest: argv.slice(1) };
  return null;
}

/** Commands that load the API (type-graphql needs experimentalDecorators under tsx). */
export function needsDecorators(argv: readonly string[]): boolean {
  return ["start", "report", "keys", "catalogs", "evals"].includes(argv[0] ?? "");
}

const HELP_FLAGS = ["--help", "-h"];

/**
 * The usage `verdict CMD --help` (or `verdict help CMD`) asks for, or null when it asks for none.
 * CMD is the words before the first flag ("catalogs" alone names both of its commands). An
 * unknown CMD answers null, so it is refused below as an unknown command.
 */
function helpAsked(argv: readonly string[]): string | null {
  const viaHelp = argv[0] === "help";
  const end = argv.indexOf("--");
  if (!viaHelp && !(end < 0 ? argv : argv.slice(0, end)).some((arg) => HELP_FLAGS.includes(arg))) return null;
  const words = viaHelp ? argv.slice(1) : argv;
  const firstFlag = words.findIndex((word) => word.startsWith("-"));
  const named = (firstFlag < 0 ? words : words.slice(0, firstFlag)).slice(0, 2);
  if (named.length < 2) return commandUsage(named[0] ?? "");
  // A second word is a command's argument (`report RUN --help`) or names a subcommand: of a group,
  // an unknown one (`evals export --help`) is refused as unknown, not answered with another's usage.
  return commandUsage(named.join(" ")) ?? (isCommandName(named[0]) ? commandUsage(named[0]) : null);
}

const VERSION_NAMES = ["version", "--version"];

/**
 * `verdict version` (or --version), as any command: its help asked for (`version --help`, `help
 * version`) is printed, and an argument it does not take is refused by name. Only the bare form
 * was known, and `version --help` said `unknown command "version"`.
 */
function versionCommand(argv: readonly string[], io: Io): ExitCode {
  const rest = argv[0] === "help" ? [] : argv.slice(1);
  if (argv[0] === "help" || rest.some((arg) => HELP_FLAGS.includes(arg))) {
    io.out(VERSION_USAGE);
    return EXIT.ok;
  }
  if (rest.length > 0) return io.usage(`verdict version: takes no arguments (got ${rest.map((arg) => JSON.stringify(arg)).join(" ")})`);
  io.out(`verdict ${verdictVersion()}`);
  return EXIT.ok;
}

export async function runCli(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<ExitCode> {
  if (VERSION_NAMES.includes(argv[0]) || (argv[0] === "help" && VERSION_NAMES.includes(argv[1]))) return versionCommand(argv, io);
  if (argv.length === 0 || HELP_FLAGS.includes(argv[0]) || (argv[0] === "help" && argv.length === 1)) {
    (argv.length === 0 ? io.err : io.out)(USAGE);
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  const help = helpAsked(argv);
  if (help !== null) {
    io.out(help);
    return EXIT.ok;
  }
  const command = resolveCommand(argv);
  // A group alone (`verdict catalogs`) names no command: its commands, as `verdict` alone lists all.
  if (!command && argv.length === 1 && GROUPS.includes(argv[0])) {
    io.err(`verdict ${argv[0]}: name one of its commands\n${commandUsage(argv[0]) ?? ""}`);
    return EXIT.usage;
  }
  if (!command) {
    const words = argv[0] === "help" ? argv.slice(1) : argv;
    io.err(`verdict: unknown command ${JSON.stringify(words.slice(0, GROUPS.includes(words[0]) ? 2 : 1).join(" "))}; run \`verdict help\``);
    return EXIT.usage;
  }
  try {
    return await COMMANDS[command.name](command.rest, io, env);
  } catch (error) {
    const code = exitCodeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    io.err(error instanceof CliError || code === EXIT.usage ? message : `verdict ${command.name} failed: ${message}`);
    // A name not found in a home that holds nothing: the home is the likelier mistake.
    const note = isNotFound(error) && HOME_READERS.includes(command.name) ? (await import("./platform.js")).emptyHomeNote(env) : null;
    if (note) io.err(note);
    return code;
  }
}
