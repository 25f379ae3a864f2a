// Command-line parsing: the subcommand path, then flags checked against what that command takes
// (node:util parseArgs, strict), so an unknown or malformed flag is a usage error naming it.
import { parseArgs } from "node:util";
import { CliError } from "./errors.js";

export interface FlagSpec {
  /** Flags that take a value (`--out FILE` or `--out=FILE`). */
  values?: readonly string[];
  /** Flags that are on or off (`--exit`). */
  booleans?: readonly string[];
  /** Flags that take a value and may be given again, each time one more (`--metadata k=v`). */
  repeatable?: readonly string[];
  /** Positional arguments: how many at least and at most. */
  positionals?: { min: number; max: number; names: string };
}

export interface ParsedFlags {
  positionals: string[];
  values: Record<string, string | undefined>;
  booleans: Record<string, boolean>;
  /** Each repeatable flag's values, in the order given (none: an empty list). */
  lists: Record<string, string[]>;
}

export function parseFlags(command: string, argv: readonly string[], spec: FlagSpec): ParsedFlags {
  const options: Record<string, { type: "string" | "boolean"; multiple?: boolean }> = {};
  for (const name of spec.values ?? []) options[name] = { type: "string" };
  for (const name of spec.booleans ?? []) options[name] = { type: "boolean" };
  for (const name of spec.repeatable ?? []) options[name] = { type: "string", multiple: true };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: negativeValuesJoined(argv, spec), options, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    // parseArgs says e.g. "Unknown option '--foo'"; keep its words, name the command.
    throw new CliError(`verdict ${command}: ${(error as Error).message.replace(/\. To specify a positional.*$/s, "")}`);
  }
  // parseArgs keeps the last of a repeated flag: `--models a --models b` ran b alone.
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== "option" || !(spec.values ?? []).includes(token.name)) continue;
    if (seen.has(token.name)) throw new CliError(`verdict ${command}: --${token.name} is given twice; give it once${token.name === "models" ? " (several models comma separated)" : ""}`);
    seen.add(token.name);
  }
  const positionals = parsed.positionals;
  const wanted = spec.positionals ?? { min: 0, max: 0, names: "" };
  if (positionals.length < wanted.min) throw new CliError(`verdict ${command}: missing ${wanted.names}`);
  if (positionals.length > wanted.max) throw new CliError(`verdict ${command}: unexpected argument ${JSON.stringify(positionals[wanted.max])}`);
  const values: Record<string, string | undefined> = {};
  const booleans: Record<string, boolean> = {};
  for (const name of spec.values ?? []) {
    const value = parsed.values[name];
    if (typeof value === "string" && value.trim() === "") throw new CliError(`verdict ${command}: --${name} must not be empty`);
    values[name] = value as string | undefined;
  }
  for (const name of spec.booleans ?? []) booleans[name] = parsed.values[name] === true;
  const lists: Record<string, string[]> = {};
  for (const name of spec.repeatable ?? []) {
    const given = (parsed.values[name] ?? []) as string[];
    if (given.some((value) => value.trim() === "")) throw new CliError(`verdict ${command}: --${name} must not be empty`);
    lists[name] = given;
  }
  return { positionals, values, booleans, lists };
}

// `-1`, `-0.1`, `-.5`: a negative number, which no flag takes as a flag of its own.
const NEGATIVE_NUMBER = /^-\.?\d/;

/**
 * `--concurrency -1` as `--concurrency=-1`: parseArgs refuses a value that starts with a dash
 * ("argument is ambiguous … use '--concurrency=-XYZ'"), where the user meant a number and should
 * hear the flag's own rule ("must be a whole number >= 1"). Only after a flag that takes a value,
 * and never past `--`; any other dash word is still parseArgs' to refuse.
 */
function negativeValuesJoined(argv: readonly string[], spec: FlagSpec): string[] {
  const takesValue = new Set([...(spec.values ?? []), ...(spec.repeatable ?? [])]);
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") return [...args, ...argv.slice(i)];
    const next = argv[i + 1];
    if (arg.startsWith("--") && takesValue.has(arg.slice(2)) && next !== undefined) {
      // Its value, whatever it is, is passed over: `--metadata --x` is still parseArgs' to refuse.
      if (NEGATIVE_NUMBER.test(next)) args.push(`${arg}=${next}`);
      else args.push(arg, next);
      i++;
      continue;
    }
    args.push(arg);
  }
  return args;
}

/** A required flag's value, or a usage error naming the flag. */
export function required(command: string, flags: ParsedFlags, name: string, hint = ""): string {
  const value = flags.values[name];
  if (value === undefined) throw new CliError(`verdict ${command}: --${name} is required${hint ? ` (${hint})` : ""}`);
  return value;
}

/** One of a fixed set of words. */
export function oneOf<T extends string>(command: string, flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new CliError(`verdict ${command}: --${flag} must be ${allowed.slice(0, -1).join(", ")}${allowed.length > 1 ? " or " : ""}${allowed[allowed.length - 1]} (got ${JSON.stringify(value)})`);
  }
  return value as T;
}

/** A fraction in 0..1, e.g. a pass-rate gate. */
export function fraction(command: string, flag: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  // Decimal only: Number() alone also takes "" (as 0), "0x1" and "1e0".
  const number = /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(number) || number < 0 || number > 1) {
    throw new CliError(`verdict ${command}: --${flag} must be a number from 0 to 1, e.g. 0.8 (got ${JSON.stringify(value)})`);
  }
  return number;
}

/**
 * Comma-separated names, trimmed; none at all (`" , "`) is an empty list for the caller to
 * refuse, and an empty name among others (`a,,b`, a trailing comma) is a usage error naming the flag.
 */
export function list(command: string, flag: string, value: string | undefined): string[] {
  const items = (value ?? "").split(",").map((item) => item.trim());
  const named = items.filter(Boolean);
  if (named.length > 0 && named.length < items.length) {
    throw new CliError(`verdict ${command}: --${flag} has an empty name between commas (got ${JSON.stringify(value)})`);
  }
  return named;
}
