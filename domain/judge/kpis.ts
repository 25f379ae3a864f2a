// Judge-defined KPIs (reference-platform §1 #19): what the judge is asked when an evaluation's
// judge defines its own criteria, and the strict reading of its answer. A KPI becomes an
// `llm_judge` criterion whose prompt holds its name, description and rubric, so it is scored
// exactly as any llm_judge criterion is. An answer is unusable unless it gives 3 to 6 KPIs, each
// with a key a criterion may have and text an event can store: a KPI the judge got wrong is not
// silently fixed, and the reason says which one and why.
import { isStorableText } from "../events/storableText.js";
import { criteriaProblem } from "../scoring/criterionConfig.js";
import { isBlank, rubyNumber, truncate, truncateBytes } from "../support/index.js";
import { extractObject, type Parsed } from "./parse.js";

export const DEFINE_INSTRUCTIONS =
  "You define the KPIs an AI agent's answers are evaluated on. Respond ONLY with JSON.";

/** The reference's words when no judge can author the KPIs (reference-platform §1 #19). */
export const KPI_NO_JUDGE_MESSAGE = "Judge-defined KPIs need provider credentials (add a provider API key in Settings)";
/** The reference's words when the judge's answer gave no usable KPIs. */
export const KPI_UNUSABLE_MESSAGE = "Judge returned no usable KPIs — try again or add criteria manually";

export const KPI_MIN = 3;
export const KPI_MAX = 6;
/** How many recent runs the judge reads (the reference reads at most 5). */
export const RECENT_RUNS_MAX = 5;
/**
 * A KPI key: lower-case snake_case, as the reference's keys are. The criterion-key rules
 * (criteriaProblem) allow any non-blank text, but a judge's key goes into reports and URLs
 * unseen by any author: one with spaces, markup or capitals is refused rather than cleaned.
 */
const KPI_KEY = /^[a-z][a-z0-9_]{0,63}$/;
const TEXT_LIMITS = { name: 100, description: 500, rubric: 1000 } as const;

/** One KPI as the judge defined it. */
export interface DefinedKpi {
  key: string;
  name: string;
  description: string;
  rubric: string;
}

/** A recent run of the evaluation, as the judge reads it (deterministic figures only). */
export interface RecentRun {
  number: number;
  scored: number;
  passed: number;
  /** Fault name -> how many results had it. */
  faults?: Readonly<Record<string, number>>;
}

export interface DefineInput {
  instructions?: string | null;
  /** What the evaluation (or its agent) is for, when the platform holds a description. */
  description?: string | null;
  /** Keys of the criteria the evaluation already has: a KPI may not take one. */
  existingKeys?: readonly string[];
  /** Newest first; only the first RECENT_RUNS_MAX are read. */
  recentRuns?: readonly RecentRun[];
}

const fenced = (text: string): string => `---\n${text}\n---`;

function runLine(run: RecentRun): string {
  const rate = run.scored > 0 ? `${rubyNumber((100 * run.passed) / run.scored)}%` : "n/a";
  let line = `- run ${run.number}: pass rate ${rate} (${run.passed} of ${run.scored} passed)`;
  // The most frequent faults first; ties by name, so the prompt does not depend on read order.
  const faults = Object.entries(run.faults ?? {}).filter(([, n]) => Number.isFinite(n) && n > 0);
  faults.sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  if (faults.length) line += `, most frequent faults: ${faults.slice(0, 3).map(([fault, n]) => `${fault}×${n}`).join(", ")}`;
  return line;
}

/** How many of the run's tasks the description quotes, and at most how many bytes of each. */
const DESCRIBED_TASKS = 5;
const DESCRIBED_TASK_BYTES = 200;

/**
 * What an evaluation is for, as a platform holds it (it has no description field): the agent,
 * the evaluation's name, the tools the agent has and the first few tasks, each on one line.
 */
export function kpiDescription(input: { agent: string; evaluation: string; tools: readonly string[]; prompts: readonly string[] }): string {
  const lines = [`Agent: ${input.agent}. Evaluation: ${input.evaluation}.`];
  if (input.tools.length) lines.push(`Tools: ${input.tools.join(", ")}.`);
  const tasks = input.prompts.slice(0, DESCRIBED_TASKS).map((prompt) => `- ${truncateBytes(prompt.replace(/\s+/g, " "), DESCRIBED_TASK_BYTES)}`);
  lines.push("Some of its tasks:", ...tasks);
  return lines.join("\n");
}

export function definePrompt(input: DefineInput): string {
  const runs = (input.recentRuns ?? []).slice(0, RECENT_RUNS_MAX);
  const existing = input.existingKeys ?? [];
  const lines = [
    "The agent's instructions:",
    fenced(isBlank(input.instructions) ? "(no instructions configured)" : truncate(input.instructions as string, 2000)),
  ];
  if (!isBlank(input.description)) lines.push("", "What it is evaluated for:", fenced(truncate(input.description as string, 1000)));
  lines.push(
    "",
    "Criteria it is already scored on (a KPI must not reuse these keys):",
    ...(existing.length ? existing.map((key) => `- ${key}`) : ["(none)"]),
    "",
    "Recent runs (newest first):",
    ...(runs.length ? runs.map(runLine) : ["(none yet)"]),
    "",
    `Define ${KPI_MIN} to ${KPI_MAX} KPIs that say whether one answer of this agent serves its users; a judge will score each answer ` +
      "on each KPI from 0.0 (not at all) to 1.0 (fully). Each key is lower-case snake_case (a-z, 0-9, _), at most 64 characters.",
    'Reply with JSON only: {"kpis": [{"key": "<snake_case>", "name": "<a few words>", "description": "<what it measures>", ' +
      '"rubric": "<what earns 1.0, 0.5 and 0.0>"}]}',
  );
  return lines.join("\n");
}

const fail = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** Why a KPI key cannot be used (null: it can): lower-case snake_case, and a key a criterion may have. */
export function kpiKeyProblem(key: string): string | null {
  if (!KPI_KEY.test(key)) return `${JSON.stringify(truncate(key, 80))} is not lower-case snake_case (a-z, 0-9, _; at most 64 characters, starting with a letter)`;
  const problem = criteriaProblem([{ key, type: "llm_judge", config: {} }]);
  return problem ? problem.rule : null;
}

/** Why one KPI entry cannot be used, or null. */
function kpiProblem(entry: unknown): string | null {
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return "is not an object";
  const kpi = entry as Record<string, unknown>;
  if (typeof kpi.key !== "string") return '"key" is not a string';
  const keyProblem = kpiKeyProblem(kpi.key);
  if (keyProblem) return `"key" ${keyProblem}`;
  for (const field of ["name", "description", "rubric"] as const) {
    const value = kpi[field];
    if (typeof value !== "string" || isBlank(value)) return `"${field}" must be non-blank text`;
    if (value.length > TEXT_LIMITS[field]) return `"${field}" is longer than ${TEXT_LIMITS[field]} characters`;
    if (!isStorableText(value)) return `"${field}" holds characters that cannot be stored (NUL or a lone surrogate)`;
  }
  return null;
}

/**
 * Reads the judge's KPIs. Unusable: no `kpis` list, more than KPI_MAX entries, a key given twice
 * or already a criterion's, or fewer than KPI_MIN usable entries once the unusable ones (each
 * named in the reason) are left out.
 */
export function parseKpis(text: string, existingKeys: readonly string[] = []): Parsed<DefinedKpi[]> {
  const object = extractObject(text);
  if (!object.ok) return object;
  const list = object.value.kpis;
  if (!Array.isArray(list)) return fail('"kpis" is missing or not a list');
  if (list.length > KPI_MAX) return fail(`"kpis" holds ${list.length} KPIs; at most ${KPI_MAX} are used`);
  const kpis: DefinedKpi[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of list.entries()) {
    const problem = kpiProblem(entry);
    if (problem) {
      problems.push(`kpis[${index}] ${problem}`);
      continue;
    }
    const kpi = entry as Record<string, string>;
    if (seen.has(kpi.key)) return fail(`"kpis" names the key ${JSON.stringify(kpi.key)} twice`);
    if (existingKeys.includes(kpi.key)) return fail(`"kpis" reuses the key ${JSON.stringify(kpi.key)}, which the evaluation's criteria already have`);
    seen.add(kpi.key);
    kpis.push({ key: kpi.key, name: kpi.name.trim(), description: kpi.description.trim(), rubric: kpi.rubric.trim() });
  }
  if (kpis.length < KPI_MIN) {
    const why = problems.length ? `; ${problems.join("; ")}` : "";
    return fail(`${kpis.length} usable KPI${kpis.length === 1 ? "" : "s"}, at least ${KPI_MIN} are needed${why}`);
  }
  return { ok: true, value: kpis };
}

/** A KPI as the `llm_judge` criterion it is scored as: its prompt is what the judge reads. */
export function kpiCriterion(kpi: DefinedKpi): { key: string; type: "llm_judge"; config: { prompt: string } } {
  return { key: kpi.key, type: "llm_judge", config: { prompt: `${kpi.name}: ${kpi.description}\nRubric: ${kpi.rubric}` } };
}
