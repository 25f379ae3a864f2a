// Code in untrusted text (an answer, a prompt) kept as written when it is quoted. GFM shows a
// fenced block's lines and a code span's text literally: the escapes escapeText() adds
// (`&lt;`, `\[`) would show too, so `arr[0] && x < 3` read `arr\[0] &amp;&amp; x &lt; 3`.
// Text there cannot open a tag, a link or a block, so leaving it unescaped is safe, provided a
// renderer sees the same code as we do; where that is not certain, the text is escaped as prose
// (still safe, only uglier):
//   - a fence opens on a line of 3+ backticks or tildes (at most 3 spaces in) and closes on the
//     first line that could close it, or at the quote's end (which ends the block quote, and so
//     the fence). Only in text with no list item, block quote or table delimiter row of its own,
//     and no tab in a line's indent: a fence can also end with a list item, a renderer may read
//     a table where we read a fence, and a tab after the quote's `> ` may make a fence of a line
//     we took for text; the lines after it would then be read as Markdown, unescaped;
//   - a code span is kept only when it opens and closes on one line and no pair of backtick runs
//     in its paragraph crosses a line or holds a `|`: the pairing then cannot depend on how a
//     renderer splits the paragraph into blocks, or a table row into cells (GFM splits cells
//     before it looks for code spans).
import { escapeText } from "./markdownText.js";

const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const BACKTICKS = /`+/g;
/** A line that may open a container a fence could end with: a list item or a block quote. */
const CONTAINER = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)|^ {0,3}>/;
/** A tab in a line's indent: how far it reaches depends on the `> ` before it. */
const TAB_INDENT = /^ *\t/;
/** A line that may be a table's delimiter row (`|---|`, `--|:-:`, and for some renderers `---`). */
const DELIMITER_ROW = /^(?=.*-)[ \t|:-]+$/;

interface Fence {
  char: string;
  length: number;
}

/** `lines` escaped as escapeText() would, except the code in them. */
export function codeAwareLines(lines: string[]): string[] {
  const out: string[] = [];
  let fence: Fence | null = null;
  let paragraph: string[] = [];
  const fencesCertain = !lines.some((line) => CONTAINER.test(line) || DELIMITER_ROW.test(line) || TAB_INDENT.test(line));
  const endParagraph = () => {
    if (paragraph.length > 0) out.push(...paragraphLines(paragraph));
    paragraph = [];
  };
  for (const line of lines) {
    if (fence) {
      out.push(line);
      if (closes(line, fence)) fence = null;
      continue;
    }
    const open = fencesCertain ? FENCE_OPEN.exec(line) : null;
    // A backtick fence's info string cannot hold a backtick: such a line is text.
    if (open && !(open[2][0] === "`" && open[3].includes("`"))) {
      endParagraph();
      fence = { char: open[2][0], length: open[2].length };
      // The info string decodes entities and escapes, so escaping it keeps its meaning.
      out.push(open[1] + open[2] + escapeText(open[3]));
      continue;
    }
    if (line.trim() === "") {
      endParagraph();
      out.push(line);
      continue;
    }
    paragraph.push(line);
  }
  endParagraph();
  return out;
}

function closes(line: string, fence: Fence): boolean {
  const close = FENCE_CLOSE.exec(line);
  return close !== null && close[1][0] === fence.char && close[1].length >= fence.length;
}

interface Run {
  line: number;
  start: number;
  length: number;
}

interface Span {
  line: number;
  start: number;
  end: number;
}

/** A paragraph's lines, prose escaped, its one-line code spans kept (when they are certain). */
function paragraphLines(lines: string[]): string[] {
  const spans = certainSpans(lines);
  return lines.map((line, i) => {
    const kept = spans.filter((span) => span.line === i);
    if (kept.length === 0) return escapeText(line);
    let out = "";
    let at = 0;
    for (const span of kept) {
      out += escapeText(line.slice(at, span.start)) + line.slice(span.start, span.end);
      at = span.end;
    }
    return out + escapeText(line.slice(at));
  });
}

/**
 * CommonMark's pairing over the whole paragraph: a run of backticks opens a span closed by the
 * next run of the same length, else it is literal. None when any pair crosses a line or a `|`.
 */
function certainSpans(lines: string[]): Span[] {
  const runs: Run[] = [];
  lines.forEach((line, i) => {
    for (const match of line.matchAll(BACKTICKS)) runs.push({ line: i, start: match.index, length: match[0].length });
  });
  // nextOfLength[k]: the first run after run k with its length, or -1 (one pass from the end,
  // so a text of many unmatched runs costs no more than one with few).
  const nextOfLength = new Array<number>(runs.length);
  const seen = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k -= 1) {
    nextOfLength[k] = seen.get(runs[k].length) ?? -1;
    seen.set(runs[k].length, k);
  }
  const spans: Span[] = [];
  let i = 0;
  while (i < runs.length) {
    const open = runs[i];
    const j = nextOfLength[i];
    if (j === -1) {
      i += 1;
      continue;
    }
    const close = runs[j];
    const end = close.start + close.length;
    if (close.line !== open.line || lines[open.line].slice(open.start, end).includes("|")) return [];
    spans.push({ line: open.line, start: open.start, end });
    i = j + 1;
  }
  return spans;
}
