// Reads a script file (the scripted agent's, the scripted judge's) as catalog files are read:
// one over the limit is refused unread (a 600 MB file was read whole, 690 MB of memory, and then
// failed with "Invalid string length"), a device is read only to just past the limit (stat says
// 0 bytes for `/dev/zero`, which was read to 655 MB), a named pipe is refused unopened (opening
// one with no writer hung), and the text must be UTF-8.
import { statSync } from "node:fs";
import { MAX_DOCUMENT_BYTES, NotRegularFile, notUtf8Rule, readUtf8AtMost, type BoundedText } from "@verdict/domain";

/** The largest script read: a script is a YAML document (a few KB), held to the document limit (2 MB). */
export const MAX_SCRIPT_BYTES = MAX_DOCUMENT_BYTES;

export async function readScriptFile(path: string, describe: string, makeError: (message: string) => Error): Promise<string> {
  const limit = MAX_SCRIPT_BYTES.toLocaleString("en-US");
  let read: BoundedText;
  try {
    const { size } = statSync(path);
    if (size > MAX_SCRIPT_BYTES) throw makeError(`${describe}: ${path} is ${size.toLocaleString("en-US")} bytes; at most ${limit} are allowed`);
    read = readUtf8AtMost(path, MAX_SCRIPT_BYTES);
  } catch (error) {
    if (error instanceof NotRegularFile) throw makeError(`${describe}: ${error.message}`);
    throw error;
  }
  if ("overLimit" in read) throw makeError(`${describe}: ${path} is over ${limit} bytes (reading stopped there); at most ${limit} are allowed`);
  if ("notUtf8" in read) throw makeError(`${describe}: ${path}: line ${read.notUtf8.line}: ${notUtf8Rule(read.notUtf8)}`);
  return read.text;
}
