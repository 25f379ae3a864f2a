// Size limits on one input document: the bad-input rules. They bound the parser's
// memory and time, so a pasted dump is refused before anything is built from it.
import type { InputErrorClass } from "./errors.js";

export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
export const MAX_SCENARIOS = 2_000;

const encoder = new TextEncoder();

export function assertDocumentSize(text: string, Err: InputErrorClass): void {
  // Every UTF-16 unit is at most 3 UTF-8 bytes: skip the encode for texts far below the limit.
  if (text.length * 3 <= MAX_DOCUMENT_BYTES) return;
  const bytes = encoder.encode(text).length;
  if (bytes > MAX_DOCUMENT_BYTES) throw new Err(documentTooLarge(bytes));
}

export function documentTooLarge(bytes: number): string {
  return `document is ${bytes.toLocaleString("en-US")} bytes; at most ${MAX_DOCUMENT_BYTES.toLocaleString("en-US")} (2 MB) are allowed`;
}

/** For a stream whose size is not known beforehand: reading stopped once it passed the limit. */
export function documentOverLimit(): string {
  return `document is over ${MAX_DOCUMENT_BYTES.toLocaleString("en-US")} bytes (reading stopped there); at most ${MAX_DOCUMENT_BYTES.toLocaleString("en-US")} (2 MB) are allowed`;
}

export function assertScenarioCount(count: number, Err: InputErrorClass, where = "document"): void {
  if (count > MAX_SCENARIOS) {
    throw new Err(`${where} has ${count.toLocaleString("en-US")} scenarios; at most ${MAX_SCENARIOS.toLocaleString("en-US")} are allowed`);
  }
}
