// `verdict run`: a local run with the library's Runner and no services (DESIGN.md "Who uses it"
// 2, the CI case). The catalog set's scenarios x the models, replayed through the agent runtime,
// scored (with the judge when one is given), one Report. The pass rate is checked against a gate.
import type { PageTheme } from "./themeFlag.js";
import { AsyncLocalStorage } from "node:async_hooks";
import {
  ClippedJudge, DEFAULT_CRITERIA, ModelSpec, Replay, Runner, kpiDescription, priceReplay, storableReplay,
  type AgentRuntime, type KpiSettlement, type PriceRefusal, type PriceTable, type Release, type Report, type Result, type RuntimeScenario, type Scenario,
} from "@verdict/domain";
import type { JudgeBackend, JudgeCallContext } from "@verdict/infra/judges";
import { DEFAULT_REPLAY_TIMEOUT_MS } from "@verdict/infra/settings";
import { loadCatalogFile } from "./catalogFile.js";
import { CliError } from "./errors.js";
import { checkStorablePrompts } from "./storablePrompts.js";
import { judgeLabelOf, routedJudge } from "./runtimeSpecs.js";
import type { ToolRoster } from "./toolsFile.js";

export interface LocalRunOptions {
  catalogPath: string;
  product: string;
  set: string;
  models: string[];
  runtime: AgentRuntime;
  judge: JudgeBackend | null;
  includeProductionOnly?: boolean;
  /**
   * --require-judge-scores: a judge grade the pair expected (task_completion with a judge, each
   * llm_judge criterion) that is missing fails the pair `judge_unavailable` (reference-core §11
   * step 6), where it was left out and the pair could pass on its rules alone.
   */
  requireJudgeScores?: boolean;
  /** Told when --require-judge-scores can change nothing: no judge, and no llm_judge criterion. */
  onNotice?: (line: string) => void;
  /** The agent's tool roster (--tools): a missing-capability diagnosis names what it has. */
  availableTools?: ToolRoster;
  /**
   * The price table (--prices): a replay with no cost is priced from it (a count it does not
   * give, from the scenario prompt's and the answer's characters ÷ 4), as the
   * worker prices one with VERDICT_PRICES (domain/pricing/priceReplay.ts). Omitted: none, and only
   * the chain's no_usage (tokens 0 in and out: $0) applies, as on the worker.
   */
  prices?: PriceTable | null;
  /** Told of an estimate no event could record (over COST_LIMIT or not finite): that replay stays unpriced. */
  onPriceRefused?: (refusal: PriceRefusal) => void;
  concurrency?: number;
  /** Each replay's budget (--replay-timeout): past it the pair is a run_error. Default 120 s, as the worker's. */
  replayTimeoutMs?: number;
  /** Told of each catalog key that looks like a typo of one the format reads (`expcet:`, `juge:`), before anything runs. */
  onCatalogWarning?: (line: string) => void;
  /** Told about each scored pair (progress on stderr). */
  onResult?: (result: Result, done: number, total: number) => void;
  /** The agent's release the run scored (--release): the report's release, as the Runner's `release`. */
  release?: Release | null;
  /** The host's own run metadata (--metadata), after the keys the run writes itself (RUN_METADATA_KEYS, which it must not hold). */
  metadata?: Readonly<Record<string, string>>;
}

/** The run metadata keys a local run writes itself: which catalog, product and set it ran, and the catalog's digest. */
export const RUN_METADATA_KEYS = ["catalog", "product", "set", "digest"] as const;

export interface LocalRunOutcome {
  report: Report;
  /** How a judge_defined set's KPIs were settled; null for other sets. */
  kpis: KpiSettlement | null;
  results: readonly Result[];
  passed: number;
  total: number;
  /** passed / total, 0..1. */
  passRate: number;
}

/** What the agent runtime sees of a scenario: the same fields the worker sends. */
export function runtimeScenarioOf(scenario: Scenario): RuntimeScenario {
  const expectations: NonNullable<RuntimeScenario["expectations"]> = {};
  if (scenario.expectedTools.length) expectations.tools = [...scenario.expectedTools];
  if (scenario.expectedPatterns.length) expectations.contains = [...scenario.expectedPatterns];
  if (scenario.forbiddenPatterns.length) expectations.not_contains = [...scenario.forbiddenPatterns];
  return { key: scenario.key, prompt: scenario.prompt, group: scenario.group, notes: scenario.notes, expectations };
}

export function modelSpecsOf(names: readonly string[]): ModelSpec[] {
  if (names.length === 0) throw new CliError("--models: name at least one model, comma separated (e.g. gpt-5-mini,claude-sonnet-4-5)");
  try {
    return ModelSpec.parseAll(names, { defaultProvider: "openai" });
  } catch (error) {
    throw new CliError(`--models: ${(error as Error).message}`);
  }
}

// The library's rule, kept: without a judge only llm_judge criteria are expected judge grades
// (and are missing, so they fail); a set with none has nothing to require, which is said, not refused.
const NOTHING_REQUIRED = "--require-judge-scores changes nothing here: no judge (--judge none) and the set has no llm_judge criterion, so no pair expects a judge grade";

/** Why a set selected nothing: a set with none was told to --include-production-only. */
function nothingToRunReason(scenarioCount: number): string {
  return scenarioCount === 0 ? "the catalog gives it none: add them under the set's scenarios:" : "all are production_only; pass --include-production-only";
}

export async function localRun(options: LocalRunOptions): Promise<LocalRunOutcome> {
  const catalog = loadCatalogFile(options.catalogPath);
  for (const line of catalog.warnings) options.onCatalogWarning?.(line);
  const product = catalog.product(options.product);
  const set = catalog.set(options.product, options.set);
  const scenarios = set.scenarios.filter((s) => options.includeProductionOnly || !s.productionOnly);
  if (scenarios.length === 0) throw new CliError(`set ${options.product}/${options.set} has no scenarios to run (${nothingToRunReason(set.scenarios.length)})`);
  checkStorablePrompts(scenarios, options.catalogPath, `${options.product}/${options.set}`);
  const models = modelSpecsOf(options.models);
  // The pair being graded, visible to a scripted judge that answers by scenario key or model.
  const pair = new AsyncLocalStorage<JudgeCallContext>();
  // Model providers route by the set's judge model, as a worker routes an evaluation's (an
  // explicit --judge providers:MODEL was routed already); one they cannot serve is refused.
  const setPin = typeof set.judge?.model === "string" ? set.judge.model : null;
  const backend = options.judge ? routedJudge(options.judge, setPin, `the set's judge model (judge: in ${options.product}/${options.set})`) : null;
  // Its answers cut as the platform records them (ClippedJudge), so the report is the one a platform run makes.
  const judge = backend
    ? new ClippedJudge({ label: judgeLabelOf(backend), complete: (request) => backend.complete(request, pair.getStore() ?? {}) })
    : null;
  const criteria = set.criteria.length ? (set.criteria as Array<{ key: string; type: string; config?: Record<string, unknown> }>) : DEFAULT_CRITERIA;
  const requireJudgeScores = options.requireJudgeScores ?? false;
  if (requireJudgeScores && !judge && !criteria.some((c) => c.type === "llm_judge")) options.onNotice?.(NOTHING_REQUIRED);
  const total = scenarios.length * models.length;
  let done = 0;
  const runtime = options.runtime;
  const prices = options.prices ?? null;
  const runner = new Runner({
    scenarios,
    models,
    criteria,
    judge,
    requireJudgeScores,
    agentName: product.agent,
    availableTools: options.availableTools,
    concurrency: options.concurrency ?? 4,
    replayTimeoutMs: options.replayTimeoutMs ?? DEFAULT_REPLAY_TIMEOUT_MS,
    // The Runner aborts the signal when the replay's budget runs out, so an HTTP agent stops too.
    replay: async (scenario: Scenario, spec: ModelSpec, { signal }: { signal?: AbortSignal }) =>
      priced(await runtime.replay(runtimeScenarioOf(scenario), spec.toJSON(), { signal: signal ?? new AbortController().signal }), spec, scenario.prompt, prices, options.onPriceRefused),
    aroundEvaluation: (context, next) => pair.run({ scenarioKey: context.scenario.key, modelLabel: context.spec.label }, next),
    onResult: (result) => options.onResult?.(result, ++done, total),
    // Spread, not assigned: a host key `__proto__` stays a key. None of RUN_METADATA_KEYS is among them (metadataFromFlags).
    metadata: { catalog: catalog.key, product: product.key, set: set.key, digest: catalog.digest, ...options.metadata },
    release: options.release ?? null,
    // A judge_defined set: the judge defines the KPIs of this run (none are kept between runs here).
    defineKpis: set.judge?.kind === "judge_defined" && {
      description: kpiDescription({ agent: product.agent ?? "the agent", evaluation: set.name, tools: (options.availableTools ?? []).map((tool) => tool.name), prompts: scenarios.map((s) => s.prompt) }),
    },
  });
  const report = await runner.run();
  const results = report.results as readonly Result[];
  const passed = results.filter((r) => r.status === "passed").length;
  return { report, kpis: runner.kpiSettlement, results, passed, total: results.length, passRate: results.length ? passed / results.length : 0 };
}

/**
 * What the agent answered, priced by the chain when it reports no cost, with its text as the
 * platform records it (storableReplay), so the judge reads what a platform run of it reads. A
 * value that is not a replay is handed back as it came, for the Runner to record as the run_error
 * it is, in its words.
 */
function priced(value: unknown, spec: ModelSpec, prompt: string, prices: PriceTable | null, onRefused: ((refusal: PriceRefusal) => void) | undefined): unknown {
  if (value === null || value === undefined) return value;
  let replay: Replay;
  try {
    replay = Replay.from(value);
  } catch {
    return value;
  }
  return storableReplay(priceReplay(replay, spec, prompt, prices, onRefused));
}

export type ReportFormat = "md" | "json" | "html";

export function renderReport(report: Report, format: ReportFormat, theme: PageTheme = null): string {
  if (format === "json") return `${JSON.stringify(report.toJSON(), null, 2)}\n`;
  if (format === "html") return report.toHtml({ theme });
  return report.toMarkdown();
}
