// Small builders shared by the command tests.
import type { EventInput } from "../../events/registry.js";

export const DIGEST_A = "a".repeat(64);
export const DIGEST_B = "b".repeat(64);

export function scenario(key: string, extra: Record<string, unknown> = {}) {
  return { key, prompt: `Prompt for ${key}`, ...extra };
}

export function created(evaluationId = "e1", extra: Record<string, unknown> = {}): EventInput<"EvaluationCreated"> {
  return {
    type: "EvaluationCreated",
    data: {
      evaluation_id: evaluationId,
      tenant: "acme",
      agent: "SupportAgent",
      name: "Support",
      judge: { kind: "rules", model: null },
      criteria: [],
      threshold: 0.7,
      compare_models: [],
      catalog: null,
      external: null,
      ...extra,
    },
  };
}

/** A stored record as the evaluation holds it. */
export function record(key: string, position: number, extra: Record<string, unknown> = {}) {
  return {
    key,
    prompt: `Prompt for ${key}`,
    expected_tools: [],
    expected_patterns: [],
    forbidden_patterns: [],
    production_only: false,
    position,
    tags: [],
    params: {},
    enabled: true,
    ...extra,
  };
}

export function replaced(records: ReturnType<typeof record>[]): EventInput<"ScenariosReplaced"> {
  return {
    type: "ScenariosReplaced",
    data: { on_removed: "destroy", scenarios: records, added: records.map((r) => r.key), updated: [], unchanged: [], removed: [], disabled: [] },
  };
}

export const GPT = { label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini" };
export const CLAUDE = { label: "claude-sonnet-5", provider: "anthropic", model: "claude-sonnet-5" };

export function runStarted(extra: Record<string, unknown> = {}, keys = ["a", "b"], models = [GPT, CLAUDE]): EventInput<"RunStarted"> {
  return {
    type: "RunStarted",
    data: {
      run_id: "r1",
      evaluation_id: "e1",
      tenant: "acme",
      number: 1,
      external: false,
      selection: { keys: null, group: null, scenario_keys: keys, model_labels: models.map((m) => m.label) },
      scenarios: keys.map((k, i) => ({ key: k, prompt: `Prompt for ${k}`, position: i })),
      models,
      criteria: [],
      judge: { kind: "rules", model: null },
      judge_label: null,
      threshold: 0.7,
      release: null,
      metadata: {},
      tools: [],
      catalog: null,
      agent: null,
      ...extra,
    },
  };
}

export function catalogImport(digest = DIGEST_A, scenarioKeys = ["refund_request"]) {
  return {
    type: "ImportCatalog",
    tenant: "acme",
    key: "support_desk",
    name: "Support Desk",
    digest,
    canonical_yaml: "---\ncatalog: support_desk\n",
    source: { kind: "upload" as const },
    products: [
      {
        key: "triage",
        name: "Triage agent",
        sets: [{ key: "smoke", name: "Smoke", scenarios: scenarioKeys.map((k) => scenario(k)) }],
      },
    ],
  };
}
