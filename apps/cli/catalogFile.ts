// A catalog file a command was pointed at, checked before it is read: a directory or a file over
// the catalog size limit is refused with its path, instead of an EISDIR from the reader or a
// multi-gigabyte read that ends in "Cannot create a string longer than ..." at exit 1.
import { statSync } from "node:fs";
import { Catalog, MAX_DOCUMENT_BYTES } from "@verdict/domain";
import { CliError } from "./errors.js";

export function loadCatalogFile(path: string): Catalog {
  let size: number | null = null;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw new CliError(`${path} is a directory, not a catalog file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    // A path that cannot be read: Catalog.load says so in its own words.
  }
  if (size !== null && size > MAX_DOCUMENT_BYTES) {
    throw new CliError(`${path}: document is ${size.toLocaleString("en-US")} bytes; at most ${MAX_DOCUMENT_BYTES.toLocaleString("en-US")} (2 MB) are allowed`);
  }
  return Catalog.load(path); // invalid documents throw with the line and rule (exit 2)
}
