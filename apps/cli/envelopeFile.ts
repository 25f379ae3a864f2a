// A report envelope file (`report.json` as exported) for `verdict evals import`: read at most one
// byte past the API's body limit, since a file is held to what a request may carry (and a pipe
// or a device has no size to check first), then parsed as JSON. Each refusal names the path.
import { statSync } from "node:fs";
import { byteLimit, DEFAULT_LIMITS } from "@verdict/api";
import { cannotReadRule, notUtf8Rule, readUtf8AtMost, type BoundedText } from "@verdict/domain";
import { CliError } from "./errors.js";

export function readEnvelopeFile(path: string): unknown {
  const limit = byteLimit(DEFAULT_LIMITS.bodyLimit);
  let read: BoundedText;
  try {
    if (statSync(path).isDirectory()) throw new CliError(`${path} is a directory, not a report envelope`);
    read = readUtf8AtMost(path, limit);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${path}: ${cannotReadRule(error)}`);
  }
  if ("overLimit" in read) {
    throw new CliError(`${path}: the envelope is over ${limit.toLocaleString("en-US")} bytes (reading stopped there); at most ${limit.toLocaleString("en-US")} (the API's ${DEFAULT_LIMITS.bodyLimit} body limit) are allowed`);
  }
  if ("notUtf8" in read) throw new CliError(`${path}: line ${read.notUtf8.line}: ${notUtf8Rule(read.notUtf8)}`);
  try {
    // A byte order mark is not part of the JSON (an editor may write one, as YAML files may carry one).
    return JSON.parse(read.text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new CliError(`${path}: not JSON (${(error as Error).message})`);
  }
}
