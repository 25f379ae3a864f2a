// A catalog file a command was pointed at, checked before it is read: a directory is refused with
// its path, instead of an EISDIR from the reader. Catalog.load refuses a file over the size limit
// unread, and stops reading a pipe or a device (no size to check first) just past the limit.
import { statSync } from "node:fs";
import { Catalog } from "@verdict/domain";
import { CliError } from "./errors.js";

export function loadCatalogFile(path: string): Catalog {
  let directory = false;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    // A path that cannot be read: Catalog.load says so in its own words.
  }
  if (directory) throw new CliError(`${path} is a directory, not a catalog file`);
  return Catalog.load(path); // invalid or oversized documents throw with the path and rule (exit 2)
}
