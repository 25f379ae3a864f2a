// The whole Markdown report (GitHub-flavoured), assembled from the public pieces so each piece
// reads exactly as it does here: title, judge line, release, metadata, threshold, verdict (model
// table, run cost, best model, comparison), the scenario x model matrix, every answer, what to
// fix, and the legend once.
import { Format, type CostRate } from "../format/index.js";
import { code, inline } from "./markdownText.js";
import { matrixSection } from "./markdownScenarios.js";
import { scalarMetadata } from "./metadataEntries.js";
import type { MarkdownSource } from "./markdownSource.js";
import { TextWriter } from "./textWriter.js";

const count = (n: number, noun: string): string => `${n} ${n === 1 ? noun : `${noun}s`}`;

/** What a failed run's report says first (the Markdown and the page alike), before the reason. */
export function failureNotice(scored: number): string {
  return `This run failed: the report covers the ${count(scored, "result")} scored before it stopped.`;
}

/** What the report of a judge_defined run without KPIs says, before why (the Markdown and the page alike). */
export const KPI_FAILURE_NOTICE = "No judge-defined KPIs: scored on the evaluation's own criteria.";

/** What a running run's report says first (the Markdown and the page alike). */
export function inProgressNotice(progress: { scored: number; total: number }): string {
  return `This run is still running: the report covers the ${count(progress.scored, "result")} scored so far, of ${progress.total}.`;
}

/**
 * What names the release a run scored, before its label (the Markdown's line, the page's chip and
 * footer alike): a metadata `release` key (a CI job's own) reads `release 1.0` beside it.
 */
export const RELEASE_CAPTION = "Release:";

/**
 * The run's metadata on one line, the entries the page shows as chips (scalarMetadata), each
 * `key value` as a chip reads, escaped and folded as the Release line's text (no tag, link or
 * line break gets through); null when there is none to show.
 */
function metadataLine(metadata: Readonly<Record<string, unknown>>): string | null {
  const entries = scalarMetadata(metadata);
  if (entries.length === 0) return null;
  return `Metadata: ${entries.map(([key, value]) => `${inline(key)} ${inline(value)}`).join(" · ")}`;
}

function header(source: MarkdownSource): string {
  const scenarios = source.resultsByScenario.size;
  const lines = [`# Evaluation — ${count(scenarios, "scenario")} × ${count(source.models.length, "model")}`, ""];
  lines.push(source.judgeName ? `Judged by ${code(source.judgeName)}.` : "No judge; scored on rules and expectations alone.");
  const release = source.release;
  if (release) {
    const name = release.label ?? [release.digest, release.revision].filter(Boolean).join(" · ");
    lines.push("", `${RELEASE_CAPTION} ${inline(name)}`);
  }
  const metadata = metadataLine(source.metadata);
  if (metadata) lines.push("", metadata);
  lines.push("", `Pass threshold: ${Format.threshold(source.threshold).replace(/^pass /, "")}`);
  if (source.failure) lines.push("", `> **${failureNotice(source.results.length)}** ${inline(source.failure)}`);
  if (source.inProgress) lines.push("", `> **${inProgressNotice(source.inProgress)}**`);
  if (source.kpiFailure) lines.push("", `> **${KPI_FAILURE_NOTICE}** ${inline(source.kpiFailure)}`);
  return lines.join("\n");
}

/** Any `~` figure on the report: an estimated run cost or a model's partially priced cost. */
function showsEstimate(source: MarkdownSource): boolean {
  if (source.runCosts.estimated && source.runCosts.total !== null) return true;
  for (const key in source.scenarioCosts) if (source.scenarioCosts[key].estimated) return true;
  return false;
}

/** Some estimate on the report was worked out from characters (basis chars): the legend says it is a lower bound. */
function showsCharsEstimate(source: MarkdownSource): boolean {
  for (const result of source.results) {
    const metadata = result.replay.metadata;
    if (metadata.cost_source === "estimated" && Format.isCharsBasis(metadata.cost_rate as CostRate | null | undefined)) return true;
  }
  return false;
}

/** The pieces a whole report is assembled from, each also public on its own. */
interface MarkdownPieces {
  verdict: string;
  /**
   * Writes `## Answers`, one `<details>` block per scenario in run order, where the writer
   * stands; returns where each block sits in the writer's text.
   */
  answers: (writer: TextWriter) => Map<string, [number, number]>;
  fixItems: string;
}

/** The whole report, and where each scenario's block sits in it. */
export function reportMarkdown(source: MarkdownSource, pieces: MarkdownPieces): { text: string; spans: Map<string, [number, number]> } {
  // Written into one buffer (textWriter.ts): joining the 1,000 blocks of a large report as
  // strings copied the whole text into fresh memory, half of this function's time.
  const writer = new TextWriter("utf16le");
  for (const part of [header(source), "\n\n", pieces.verdict, "\n\n", matrixSection(source), "\n\n"]) writer.write(part);
  const spans = pieces.answers(writer);
  writer.write("\n\n");
  writer.write(pieces.fixItems);
  if (showsEstimate(source)) writer.write(`\n\n---\n\n_${showsCharsEstimate(source) ? Format.CHARS_LEGEND : Format.LEGEND}_`);
  writer.write("\n");
  return { text: writer.finish(), spans };
}
