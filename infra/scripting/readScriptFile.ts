// Reads a script file (the scripted agent's, the scripted judge's), refusing one too large to
// be a script before reading it: a 600 MB file was read whole (690 MB of memory) and then
// failed with "Invalid string length".
import { readFile, stat } from "node:fs/promises";

/** The largest script read: far more than any script (a few KB), far less than a read that exhausts memory. */
export const MAX_SCRIPT_BYTES = 8 * 1024 * 1024;

export async function readScriptFile(path: string, describe: string, makeError: (message: string) => Error): Promise<string> {
  const { size } = await stat(path);
  if (size > MAX_SCRIPT_BYTES) {
    throw makeError(`${describe}: ${path} is ${size.toLocaleString("en-US")} bytes; at most ${MAX_SCRIPT_BYTES.toLocaleString("en-US")} are allowed`);
  }
  return readFile(path, "utf8");
}
