// A load or parse given nothing but empty documents (no bytes, or only blank lines and
// comments) is refused. Layered over other documents an empty one still reads as {}
// (reference-core §3), but alone it loaded a catalog keyed by its file's name with no products,
// and importing that removed every product of the stored catalog and disabled the scenarios of
// each evaluation made from it.
import { InvalidDocument } from "./errors.js";

/** An empty document: what the YAML reader gives for a text with no value in it. */
function isEmptyDocument(document: unknown): boolean {
  return document === null || document === undefined;
}

/** Refuses `documents` when every one is empty, naming `sources` (the files) when known. */
export function refuseOnlyEmpty(documents: readonly unknown[], kind: string, sources: readonly string[] = []): void {
  if (documents.length === 0 || !documents.every(isEmptyDocument)) return;
  const rule = `document is empty (nothing but blank lines or comments): there is no ${kind} in it`;
  throw new InvalidDocument(rule, sources.length ? { source: sources.join(", ") } : {});
}
