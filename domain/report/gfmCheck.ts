// A small structural check of GitHub-flavoured Markdown for the tests (no parser dependency):
// every table keeps one column count from its header to its last row (cells split on
// unescaped `|`, as GFM does), every `<details>` we open is closed by our own `</details>` line,
// and no untrusted markup (`<details`, `</details`, `<script`, `<summary` outside our lines)
// appears anywhere else as raw HTML.

interface GfmProblem {
  line: number;
  problem: string;
}

export function splitCells(row: string): string[] {
  let body = row.trim();
  if (body.startsWith("|")) body = body.slice(1);
  if (body.endsWith("|") && !body.endsWith("\\|")) body = body.slice(0, -1);
  const cells: string[] = [];
  let current = "";
  for (let i = 0; i < body.length; i += 1) {
    const char = body[i];
    if (char === "\\" && body[i + 1] === "|") { current += "\\|"; i += 1; continue; }
    if (char === "|") { cells.push(current); current = ""; continue; }
    current += char;
  }
  cells.push(current);
  return cells;
}

const DELIMITER = /^\|(\s*:?-{3,}:?\s*\|)+$/;
const RAW_TAG = /<\/?(details|summary|script|style|iframe|img)\b/i;

export function checkGfm(markdown: string): GfmProblem[] {
  const problems: GfmProblem[] = [];
  const lines = markdown.split("\n");
  let depth = 0;
  let columns = 0;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    const at = i + 1;
    if (line === "<details>") { depth += 1; continue; }
    if (line === "</details>") {
      depth -= 1;
      if (depth < 0) problems.push({ line: at, problem: "</details> without an open block" });
      if (lines[i - 1] !== "") problems.push({ line: at, problem: "</details> not preceded by a blank line" });
      continue;
    }
    if (/^<summary>.*<\/summary>$/.test(line) && lines[i - 1] === "<details>") {
      if (RAW_TAG.test(line.slice("<summary>".length, -"</summary>".length))) problems.push({ line: at, problem: "raw tag inside <summary>" });
      if (lines[i + 1] !== "") problems.push({ line: at, problem: "<summary> not followed by a blank line" });
      continue;
    }
    if (RAW_TAG.test(line)) problems.push({ line: at, problem: `raw HTML tag in text: ${line.slice(0, 80)}` });
    if (columns > 0) {
      if (line.startsWith("|")) {
        const count = splitCells(line).length;
        if (count !== columns) problems.push({ line: at, problem: `table row has ${count} cells, header has ${columns}` });
        continue;
      }
      if (line !== "") problems.push({ line: at, problem: "table not followed by a blank line" });
      columns = 0;
    }
    if (line.startsWith("|") && DELIMITER.test(lines[i + 1] ?? "")) {
      columns = splitCells(line).length;
      const delimiterCells = splitCells(lines[i + 1]).length;
      if (delimiterCells !== columns) problems.push({ line: at + 1, problem: "delimiter row does not match the header" });
      i += 1;
    }
  }
  if (depth !== 0) problems.push({ line: lines.length, problem: `${depth} <details> block(s) left open` });
  return problems;
}
