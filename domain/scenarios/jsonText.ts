// JSON reading for pasted scenarios. JSON.parse silently keeps the last of two equal keys, so
// a scan of the (already valid) text finds a repeated key and the line it sits on.
import type { InputErrorClass } from "./errors.js";

/** The parsed value, or `undefined` when the text is not JSON (the parser then reads lines). */
export function tryParseJson(text: string, Err: InputErrorClass): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  assertUniqueKeys(text, Err);
  return value;
}

/** Walks valid JSON text keeping one key set per open object. */
function assertUniqueKeys(text: string, Err: InputErrorClass): void {
  const stack: Array<Set<string> | null> = [];
  let line = 1;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === "\n") line += 1;
    else if (char === "{") stack.push(new Set());
    else if (char === "[") stack.push(null);
    else if (char === "}" || char === "]") stack.pop();
    else if (char === '"') {
      const end = stringEnd(text, i);
      const keys = stack[stack.length - 1];
      if (keys && isKey(text, end + 1)) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (keys.has(key)) throw new Err(`repeated key ${JSON.stringify(key)} in one object`, { line });
        keys.add(key);
      }
      i = end;
    }
  }
}

function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return i;
}

function isKey(text: string, from: number): boolean {
  let i = from;
  while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i += 1;
  return text[i] === ":";
}
