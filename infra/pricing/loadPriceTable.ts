// Reads the operator's price table file (VERDICT_PRICES, `verdict run --prices`) once, at start:
// as catalogs and tool rosters are read (at most 2 MB, UTF-8 only, a named pipe refused
// unopened), then parsed by the domain's PriceTable. Every refusal is a PriceTableError naming
// the file (and the path and rule in it); the caller names its setting.
import { statSync } from "node:fs";
import { cannotReadRule, MAX_DOCUMENT_BYTES, notUtf8Rule, PriceTable, PriceTableError, readUtf8AtMost, type BoundedText } from "@verdict/domain";

export function loadPriceTable(path: string): PriceTable {
  let read: BoundedText;
  try {
    if (statSync(path).isDirectory()) throw new PriceTableError(path, null, "a directory, not a price table file");
    read = readUtf8AtMost(path, MAX_DOCUMENT_BYTES);
  } catch (error) {
    if (error instanceof PriceTableError) throw error;
    throw new PriceTableError(path, null, (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : cannotReadRule(error));
  }
  if ("overLimit" in read) throw new PriceTableError(path, null, `over ${MAX_DOCUMENT_BYTES.toLocaleString("en-US")} bytes (reading stopped there); at most 2 MB are allowed`);
  if ("notUtf8" in read) throw new PriceTableError(path, `line ${read.notUtf8.line}`, notUtf8Rule(read.notUtf8));
  return PriceTable.parse(read.text, path);
}
