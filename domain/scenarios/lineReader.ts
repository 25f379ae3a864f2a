// The line reader (reference-core §2.4): one message per line, heading lines set the group,
// list markers dropped, a leading backticked prompt with the rest as notes, and
// `| tools: a, b | contains: x` options.
import { characterLength, identifierTextProblem, isBlank } from "../support/index.js";
import { ParseError } from "./errors.js";
import { expectationsOf, type ReadEntry } from "./parsedScenario.js";
import { patternProblem } from "./pattern.js";

const HASH_HEADING = /^#+\s+(.*)$/s;
const BOLD_HEADING = /^\*\*(.+?)\*\*:?\s*(?:—.*)?$/s;
const LIST_MARKER = /^\s*(?:[-*•]|\d+[.)])\s+/;
const OPTION_SPLIT = /\s\|\s/;
const OPTION_NAMES = new Set(["tools", "contains", "not_contains", "key", "group", "notes"]);
const BACKTICK_LEAD = /^`([^`]*)`(.*)$/s;
const MARKUP = /\*\*|__|`/g;
/**
 * A line break as the paste's writer meant it: CRLF, LF, a lone CR (old Mac files, some text
 * fields), NEL, or the Unicode line and paragraph separators. Split on LF alone, a CR-only paste
 * was one line, and all but its last scenario's options and prompt were lost without a word.
 */
export const LINE_BREAK = /\r\n|[\n\r\u0085\u2028\u2029]/;

export function readLines(text: string): ReadEntry[] {
  const entries: ReadEntry[] = [];
  let heading: string | null = null;
  text.split(LINE_BREAK).forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    const title = headingOf(line);
    if (title !== undefined) {
      heading = isBlank(title) ? null : title;
      return;
    }
    entries.push(readLine(line, heading, index + 1));
  });
  return entries;
}

/** The heading's text, or undefined when the line is a scenario. */
function headingOf(line: string): string | undefined {
  const hash = HASH_HEADING.exec(line);
  if (hash) return hash[1].trim();
  const bold = BOLD_HEADING.exec(line);
  if (bold) return bold[1].replace(MARKUP, "").trim();
  if (line.endsWith(":") && characterLength(line) <= 80 && !LIST_MARKER.test(line) && !line.includes("?") && !line.includes(" | ")) {
    return line.slice(0, -1).trim();
  }
  return undefined;
}

function readLine(line: string, heading: string | null, lineNumber: number): ReadEntry {
  const { body, options } = splitOptions(line.replace(LIST_MARKER, ""));
  const { prompt, notes } = promptAndNotes(body);
  if (isBlank(prompt)) throw new ParseError("each evaluation scenario must contain a prompt", { line: lineNumber });
  const noteText = [notes, options.get("notes")].filter((part) => !isBlank(part)).join(" ");
  const group = checkedIdentifier(isBlank(options.get("group")) ? heading : options.get("group")!, "group", lineNumber);
  return {
    prompt,
    group,
    group_name: null,
    key: checkedIdentifier(isBlank(options.get("key")) ? null : options.get("key")!, "key", lineNumber),
    notes: isBlank(noteText) ? null : noteText,
    expectations: expectationsOf(
      splitList(options.get("tools")).map((tool) => checkedIdentifier(tool, "tools", lineNumber) as string),
      checkedPatterns(splitList(options.get("contains")), "contains", lineNumber),
      checkedPatterns(splitList(options.get("not_contains")), "not_contains", lineNumber),
    ),
    production_only: false,
    line: lineNumber,
  };
}

function splitOptions(text: string): { body: string; options: Map<string, string> } {
  const segments = text.split(OPTION_SPLIT);
  const options = new Map<string, string>();
  if (segments.length === 1) return { body: text, options };
  const kept = [segments[0]];
  for (const segment of segments.slice(1)) {
    const colon = segment.indexOf(":");
    const name = colon === -1 ? "" : segment.slice(0, colon).trim().toLowerCase();
    if (OPTION_NAMES.has(name)) options.set(name, segment.slice(colon + 1).trim());
    else kept.push(segment);
  }
  return { body: kept.join(" | "), options };
}

function promptAndNotes(body: string): { prompt: string; notes: string | null } {
  const ticked = BACKTICK_LEAD.exec(body);
  if (!ticked) return { prompt: body.replace(MARKUP, "").trim(), notes: null };
  const rest = ticked[2].trim().replace(/^[—–-]\s*/, "").trim();
  return { prompt: ticked[1].trim(), notes: rest || null };
}

function splitList(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(/[,;]/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** A key, group or tool name a reader can tell from another (support/identifierText). */
function checkedIdentifier(value: string | null, option: string, line: number): string | null {
  const problem = value === null ? null : identifierTextProblem(value);
  if (problem) throw new ParseError(`${option}: ${problem}`, { line });
  return value;
}

function checkedPatterns(patterns: string[], option: string, line: number): string[] {
  for (const pattern of patterns) {
    const problem = patternProblem(pattern);
    if (problem) throw new ParseError(`${option}: ${problem}`, { line });
  }
  return patterns;
}
