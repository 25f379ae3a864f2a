// Builds a log the way the platform writes it: commands through the domain's deciders
// (handleCommand, createEvaluation, startRun, importReport) on an EventStore, with a fixed clock and counting ids.
import {
  recordAgentRelease, catalogAggregate, catalogStream, createEvaluation as create, evaluationAggregate, evaluationStream, handleCommand, importReport, pairStream, resultAggregate, runAggregate, runStream, startRun,
  type EventStore, type RunState,
} from "@verdict/domain";

export const GPT = { label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini" };
export const CLAUDE = { label: "claude-sonnet-5", provider: "anthropic", model: "claude-sonnet-5" };

// Ids count up across every deps object of a process, so two tenants' commands never share one.
let lastId = 0;

export function commandDeps(tenant = "acme") {
  let seconds = 0;
  return {
    // Time moves a second per command so timestamps differ, yet every run of a test writes the same ones.
    clock: { now: () => new Date(Date.UTC(2026, 10, 30, 12, 0, seconds++)) },
    ids: { next: () => `00000000-0000-4000-8000-${String(++lastId).padStart(12, "0")}` },
    context: { tenant, actor: "tester" },
  };
}

export type Deps = ReturnType<typeof commandDeps>;

export async function createEvaluation(store: EventStore, deps: Deps, evaluationId: string, keys: string[]): Promise<void> {
  await create(store, {
    evaluation_id: evaluationId,
    tenant: deps.context.tenant,
    agent: "SupportAgent",
    name: `Support ${evaluationId}`,
    scenarios: keys.map((key, i) => ({ key, prompt: `Prompt for ${key}`, group: i % 2 === 0 ? "billing" : "refunds", expected_tools: ["lookup"] })),
  }, deps);
}

export async function beginRun(store: EventStore, deps: Deps, evaluationId: string, runId: string, models = [GPT, CLAUDE]): Promise<RunState> {
  const { run } = await startRun(store, { run_id: runId, evaluation_id: evaluationId, models }, deps);
  return run.state;
}

export type Outcome = "passed" | "failed" | "errored";

export async function recordPair(store: EventStore, deps: Deps, run: RunState, key: string, label: string, outcome: Outcome, metadata?: Record<string, unknown>): Promise<void> {
  const streamId = pairStream(run, key, label);
  const pair = { run_id: run.runId!, scenario_key: key, model_label: label };
  const options = { ...deps, decideContext: { run } };
  const replay = outcome === "errored"
    ? { error: "Timeout: agent took too long", duration_ms: 30_000 }
    : { answer: `Answer to ${key}`, tool_calls: [{ name: "lookup" }], duration_ms: 100 + key.length, input_tokens: 10, output_tokens: 5, cost: 0.0001 };
  await handleCommand(store, resultAggregate, streamId, { type: "RecordReplay", ...pair, replay: metadata ? { ...replay, metadata } : replay }, options);
  const score = {
    passed: { status: "passed", score: 1, pass: true, fault: null },
    failed: { status: "failed", score: 0.2, pass: false, fault: "expected_tool_not_called" },
    errored: { status: "errored", score: null, pass: false, fault: "run_error" },
  }[outcome];
  const judge_exchanges = outcome === "passed"
    ? [{ kind: "score", prompt_digest: "d1", raw_answer: '{"score":1}', parsed: { score: 1 }, usage: { input_tokens: 7, output_tokens: 3, cost: 0.00002 } }]
    : [];
  await handleCommand(store, resultAggregate, streamId, {
    type: "ScoreResult", ...pair, ...score, scores: { task_completion: score.score }, recommendation: score.fault ? "Call lookup first." : null,
    diagnosis: score.fault ? { fault: score.fault } : null, judge_exchanges,
  }, options);
}

export async function completeRun(store: EventStore, deps: Deps, runId: string, results: { scenario_key: string; model_label: string; pass: boolean }[], summary: Record<string, unknown> = {}) {
  return handleCommand(store, runAggregate, runStream(runId), { type: "CompleteRun", run_id: runId, results, summary }, deps);
}

export async function failRun(store: EventStore, deps: Deps, runId: string, message: string) {
  return handleCommand(store, runAggregate, runStream(runId), { type: "FailRun", run_id: runId, message }, deps);
}

export async function recordVerdict(store: EventStore, deps: Deps, runId: string, winner: string, judgeLabel: string | null = null) {
  await handleCommand(store, runAggregate, runStream(runId), {
    type: "RecordVerdict", run_id: runId, verdict: { winner, rationale: `${winner} passed more`, judge: judgeLabel ?? "pass rate" }, judge_label: judgeLabel,
    ranking: { [winner]: { pass_rate: 100 } },
    judge_exchange: { kind: "verdict", prompt_digest: "v1", raw_answer: "{}", parsed: {}, usage: { input_tokens: 100, output_tokens: 20, cost: 0.001 } },
  }, deps);
  await handleCommand(store, runAggregate, runStream(runId), {
    type: "RecordComparison", run_id: runId, comparison: { models: [GPT.label, CLAUDE.label], pairs: [], conclusion: "not decisive" }, seed: 42, resamples: 1000, confidence: 0.95,
  }, deps);
}

/** The run is keyed by (tenant, hostRunId): its id is importedRunId(tenant, hostRunId). */
export async function importFinishedReport(store: EventStore, deps: Deps, evaluationId: string, hostRunId: string, report: Record<string, unknown>) {
  return importReport(store, {
    run_id: hostRunId, evaluation_id: evaluationId, tenant: deps.context.tenant, source: "ci", agent_name: "SupportAgent", suite: "support",
    digest: "c".repeat(64), report,
  }, deps);
}

export async function importCatalog(store: EventStore, deps: Deps, key: string, digest: string, scenarioKeys: string[]) {
  return handleCommand(store, catalogAggregate, catalogStream(deps.context.tenant, key), {
    type: "ImportCatalog", tenant: deps.context.tenant, key, name: `Catalog ${key}`, digest, canonical_yaml: `---\ncatalog: ${key}\n`,
    source: { kind: "upload" },
    products: [{ key: "triage", name: "Triage agent", sets: [{ key: "smoke", name: "Smoke", scenarios: scenarioKeys.map((k) => ({ key: k, prompt: `Prompt for ${k}` })) }] }],
  }, deps);
}

export async function removeCatalog(store: EventStore, deps: Deps, key: string) {
  return handleCommand(store, catalogAggregate, catalogStream(deps.context.tenant, key), { type: "RemoveCatalog", tenant: deps.context.tenant, key }, deps);
}

export async function evaluationCommand(store: EventStore, deps: Deps, evaluationId: string, command: Record<string, unknown>) {
  return handleCommand(store, evaluationAggregate, evaluationStream(evaluationId), { evaluation_id: evaluationId, ...command }, deps);
}

/** Records a release of the tenant's agent (`SupportAgent` unless named) by its digest. */
export async function recordRelease(store: EventStore, deps: Deps, digest: string, agent = "SupportAgent", revision: string | null = null) {
  return recordAgentRelease(store, { tenant: deps.context.tenant, agent, digest, revision }, deps);
}
