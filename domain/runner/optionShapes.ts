// The shapes of the Runner's options, checked when it is built: a JavaScript caller (or `as any`)
// could pass a string for a ModelSpec or `{}` for a Judge, which would otherwise run and fail
// far from the mistake (a summary keyed "undefined", "judge.scoreTask is not a function").
import { Diagnosis } from "../diagnosis/index.js";
// The class alone: the scenarios index loads the YAML readers (~10 MB resident) the Runner never uses.
import { Scenario } from "../scenarios/scenario.js";
import { checkKnownOptions, described, isBlank } from "../support/index.js";
import type { RunnerOptions } from "./runner.js";

const JUDGE_METHODS = ["scoreTask", "scoreCriterion", "recommend", "verdict"] as const;

// Every option the Runner reads, by kind (the compiler keeps this in step with RunnerOptions): a
// misspelt one (`treshold`) ran on the default, and a callback that was not one failed only after
// the first replay, losing the run's results.
const OPTION_KINDS: Record<keyof RunnerOptions, "checked" | "function" | "text" | "boolean" | "object"> = {
  scenarios: "checked", models: "checked", replay: "checked", criteria: "checked", judge: "checked", availableTools: "checked",
  threshold: "checked", refineFaults: "checked", judgeLimit: "checked", aroundEvaluation: "checked", concurrency: "checked",
  replayTimeoutMs: "checked", defineKpis: "checked",
  onResult: "function", refineGate: "function", toolResolver: "function",
  agentName: "text", instructions: "text",
  judgeTask: "boolean", requireJudgeScores: "boolean",
  metadata: "object", release: "object", links: "object",
};
const OPTION_NAMES = Object.keys(OPTION_KINDS) as (keyof RunnerOptions)[];

/** Refuses an option the Runner does not read, and one of the simple kinds given the wrong type (the rest have checks of their own). */
export function checkOptions(options: object): void {
  checkKnownOptions("Runner", options, OPTION_NAMES);
  for (const [name, value] of Object.entries(options)) {
    const kind = OPTION_KINDS[name as keyof RunnerOptions];
    const problem = value === undefined || kind === "checked" ? null : kindProblem(kind, value);
    if (problem) throw new TypeError(`Runner: ${name} must be ${problem}, got ${described(value)}`);
  }
}

function kindProblem(kind: "function" | "text" | "boolean" | "object", value: unknown): string | null {
  if (kind === "boolean") return typeof value === "boolean" ? null : "true or false";
  if (value === null) return null;
  if (kind === "function") return typeof value === "function" ? null : "a function or null";
  if (kind === "text") return typeof value === "string" ? null : "text or null";
  return typeof value === "object" && !Array.isArray(value) ? null : "an object or null";
}


/**
 * Scenarios, each with a key of its own: a report reads its results by scenario key, so two
 * scenarios under one key ran and showed as one doubled block, and a blank key as a block with
 * no name; neither could be read back (Report.fromJSON refuses both, as importReport does).
 */
export function checkScenarios(scenarios: readonly unknown[]): void {
  const seen = new Set<string>();
  scenarios.forEach((scenario, i) => {
    if (!(scenario instanceof Scenario)) throw new TypeError(`Runner: scenarios[${i}] must be a Scenario (new Scenario / ScenarioParser.scenarios), got ${described(scenario)}`);
    const key: unknown = scenario.key;
    if (typeof key !== "string" || key.trim() === "") throw new TypeError(`Runner: scenarios[${i}].key must be non-blank text, got ${JSON.stringify(key) ?? String(key)}`);
    if (seen.has(key)) throw new RangeError(`Runner: scenarios[${i}] repeats the key ${JSON.stringify(key)}: each scenario must have its own key`);
    seen.add(key);
  });
}

/** A ModelSpec, or a host's own `{ label, provider, model }` (the worker's recorded models). */
export function checkModels(models: readonly unknown[]): void {
  models.forEach((spec, i) => {
    const problem = specProblem(spec);
    if (problem) throw new TypeError(`Runner: models[${i}] must be a ModelSpec (ModelSpec.parse / parseAll), got ${problem}`);
  });
}

function specProblem(spec: unknown): string | null {
  if (typeof spec !== "object" || spec === null) return described(spec);
  const fields = spec as Record<string, unknown>;
  const missing = ["label", "provider", "model"].find((key) => typeof fields[key] !== "string");
  if (missing) return `${described(spec)} without a string ${missing}`;
  return isBlank(fields.label) ? `${described(spec)} with a blank label` : null;
}

export function checkJudge(judge: unknown): void {
  if (judge === null || judge === undefined) return;
  const methods = judge as Record<string, unknown>;
  const missing = typeof judge === "object" ? JUDGE_METHODS.find((name) => typeof methods[name] !== "function") : "scoreTask";
  if (missing) throw new TypeError(`Runner: judge must be a Judge (new Judge({ label, complete })) or null, got ${described(judge)}${typeof judge === "object" ? ` without ${missing}()` : ""}`);
}

/** `defineKpis`: a boolean, or what the judge reads ({ description?, recentRuns? }): a wrong shape failed only inside run(). */
export function checkDefineKpis(value: unknown): void {
  if (value === undefined || typeof value === "boolean") return;
  const options = value as { description?: unknown; recentRuns?: unknown };
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new TypeError(`Runner: defineKpis must be true, false or { description?, recentRuns? }, got ${described(value)}`);
  if (options.description != null && typeof options.description !== "string") throw new TypeError(`Runner: defineKpis.description must be text or null, got ${described(options.description)}`);
  if (options.recentRuns === undefined) return;
  if (!Array.isArray(options.recentRuns)) throw new TypeError(`Runner: defineKpis.recentRuns must be an array of { number, scored, passed, faults? }, got ${described(options.recentRuns)}`);
  options.recentRuns.forEach((run: unknown, i) => {
    const r = run as { number?: unknown; scored?: unknown; passed?: unknown };
    if (run === null || typeof run !== "object" || ![r.number, r.scored, r.passed].every((n) => typeof n === "number" && Number.isFinite(n))) {
      throw new TypeError(`Runner: defineKpis.recentRuns[${i}] must be { number, scored, passed, faults? } with numbers, got ${described(run)}`);
    }
  });
}

/** Fault names the judge refines: a misspelt one would silently never be refined. */
export function checkRefineFaults(faults: unknown): void {
  if (faults === undefined) return;
  if (!Array.isArray(faults)) throw new TypeError(`Runner: refineFaults must be an array of fault names, got ${described(faults)}`);
  const known: readonly unknown[] = Diagnosis.FAULTS;
  faults.forEach((fault: unknown, i) => {
    if (!known.includes(fault)) throw new RangeError(`Runner: refineFaults[${i}] must be one of ${known.join(", ")}, got ${JSON.stringify(fault) ?? String(fault)}`);
  });
}
