// The report benchmark's workload (issue 4 "Speed"): N scenarios (some with expected tools, some
// with contains / not-contains) x 5 models, and a replay per pair built before timing, so the
// replay function is a lookup. The mix: passes, tool errors, missing tools, forbidden content,
// with durations, tokens and costs (some estimated, some unpriced).
import { Scenario } from "../domain/scenarios/scenario.js";
import { ModelSpec } from "../domain/models/index.js";

const MODEL_LABELS = ["gpt-5-mini", "claude-sonnet-5", "ollama/qwen3:8b", "gpt-5", "openrouter/meta-llama/llama-3.3-70b"];

export const CRITERIA = [
  { key: "response_present", type: "response_present" },
  { key: "min_length", type: "min_length", config: { chars: 40 } },
  { key: "max_latency_ms", type: "max_latency_ms", config: { ms: 5000 } },
  { key: "token_budget", type: "token_budget", config: { output_tokens: 800 } },
];

interface ReplayRecord {
  answer: string | null;
  tool_calls: { name: string; arguments?: Record<string, unknown>; error?: string | boolean; detail?: string }[];
  duration_ms: number;
  input_tokens: number;
  output_tokens: number;
  cost: number | null;
  metadata: Record<string, unknown>;
}

export interface Workload {
  scenarios: Scenario[];
  models: ModelSpec[];
  replays: Map<Scenario, Map<ModelSpec, ReplayRecord>>;
  replay: (scenario: Scenario, spec: ModelSpec) => ReplayRecord;
}

// A small deterministic generator, so every run of the bench measures the same data.
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

const TOOLS = ["lookup_order", "refund_order", "search_tickets", "send_invoice", "list_customers"];

function scenarioAt(i: number): Scenario {
  const kind = i % 4;
  const tool = TOOLS[i % TOOLS.length];
  return new Scenario({
    key: `scenario_${i}`,
    group: `group_${Math.floor(i / 50)}`,
    prompt: `Customer ${i} asks: where is order ${1000 + i}, and can it be refunded | cancelled?`,
    expectedTools: kind === 0 || kind === 1 ? [tool] : [],
    expectedPatterns: kind === 2 ? ["refund"] : [],
    forbiddenPatterns: kind === 3 ? ["I cannot"] : [],
  });
}

function replayFor(scenario: Scenario, modelIndex: number, random: () => number): ReplayRecord {
  const roll = random();
  const tool = scenario.expectedTools[0] ?? TOOLS[modelIndex];
  const duration = Math.round(300 + random() * 4000 + modelIndex * 250);
  const input = 400 + Math.round(random() * 1600);
  const output = 60 + Math.round(random() * 900);
  const estimated = modelIndex === 2;
  const cost = modelIndex === 4 && roll < 0.5 ? null : Math.round((input * 3 + output * 15) / 1e6 * 1e6) / 1e6;
  const metadata: Record<string, unknown> = estimated ? { cost_source: "estimated", cost_rate: { input: 3, output: 15, source: "catalog" } } : {};
  let answer = `Order ${scenario.key} is on its way and a refund can be issued within 30 days; here is the tracking link.`;
  let calls: ReplayRecord["tool_calls"] = [{ name: tool, arguments: { id: scenario.key } }];
  if (roll < 0.12) {
    calls = [{ name: tool, arguments: { id: scenario.key }, error: true, detail: "HTTP 500: upstream unavailable | retry later" }];
  } else if (roll < 0.24) {
    calls = [];
    answer = "There are 3 open orders on your account, and #4821 ships tomorrow.";
  } else if (roll < 0.32) {
    answer = "I cannot refund that order <b>today</b>.\nPlease try again.";
  } else if (roll < 0.36) {
    answer = "";
  }
  return { answer, tool_calls: calls, duration_ms: duration, input_tokens: input, output_tokens: output, cost, metadata };
}

export function buildWorkload(scenarioCount: number, modelCount = 5): Workload {
  const random = lcg(42);
  const scenarios = Array.from({ length: scenarioCount }, (_, i) => scenarioAt(i));
  const models = MODEL_LABELS.slice(0, modelCount).map((label) => ModelSpec.parse(label, { defaultProvider: "openai" }));
  const replays = new Map<Scenario, Map<ModelSpec, ReplayRecord>>();
  for (const scenario of scenarios) {
    const byModel = new Map<ModelSpec, ReplayRecord>();
    models.forEach((spec, m) => byModel.set(spec, replayFor(scenario, m, random)));
    replays.set(scenario, byModel);
  }
  // A lookup: Replay.from copies the metadata, so the prebuilt record is never written to.
  const replay = (scenario: Scenario, spec: ModelSpec): ReplayRecord => replays.get(scenario)!.get(spec)!;
  return { scenarios, models, replays, replay };
}
