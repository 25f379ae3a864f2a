// JSON reading for pasted scenarios. JSON.parse silently keeps the last of two equal keys and
// rounds an integer past 2^53 (`"user_id": 1234567890123456789` came back 1234567890123456800),
// so a scan of the (already valid) text finds a repeated key or such an integer, with the line
// and the document path it sits on, as YAML text reports them.
import type { InputErrorClass } from "./errors.js";
import { unsafeIntegerRule } from "./yamlIntegers.js";

/** The parsed value, or `undefined` when the text is not JSON (the parser then reads lines). */
export function tryParseJson(text: string, Err: InputErrorClass): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  checkText(text, Err);
  return value;
}

/** An open object (its keys so far, and the key being read) or array (the index being read). */
type Frame = { keys: Set<string>; key: string } | { index: number };

const NUMBER_CHAR = /[-+0-9.eE]/;
const INTEGER = /^-?\d+$/;
/** Outside a string, valid JSON has a digit or a minus sign only where a number starts. */
const startsNumber = (char: string): boolean => char === "-" || (char >= "0" && char <= "9");

/** Walks valid JSON text keeping one frame per open object or array. */
function checkText(text: string, Err: InputErrorClass): void {
  const stack: Frame[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    const top = stack[stack.length - 1];
    if (char === "\n") line += 1;
    else if (char === "{") stack.push({ keys: new Set(), key: "" });
    else if (char === "[") stack.push({ index: 0 });
    else if (char === "}" || char === "]") stack.pop();
    else if (char === "," && top && "index" in top) top.index += 1;
    else if (char === '"') {
      const end = stringEnd(text, i);
      if (top && "keys" in top && isKey(text, end + 1)) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) throw new Err(`repeated key ${JSON.stringify(key)} in one object`, { line });
        top.keys.add(key);
        top.key = key;
      }
      i = end;
    } else if (startsNumber(char)) {
      let end = i + 1;
      while (end < text.length && NUMBER_CHAR.test(text[end])) end += 1;
      const source = text.slice(i, end);
      if (INTEGER.test(source) && !Number.isSafeInteger(Number(source))) throw new Err(unsafeIntegerRule(source), { line, path: pathOf(stack) });
      i = end - 1;
    }
  }
}

/** `scenarios[0].params.user_id`, as a YAML document's path reads. */
function pathOf(stack: Frame[]): string {
  let path = "";
  for (const frame of stack) path += "index" in frame ? `[${frame.index}]` : path ? `.${frame.key}` : frame.key;
  return path;
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
