// A realistic report document (three models, grouped scenarios, tool errors, estimated costs, a
// judge, a recorded comparison, fix items) for the renderer's tests and the browser test. One
// answer carries hostile markup, as untrusted agent output can.

import type { FixItemDoc, ReportDocument, ReportMarkdown, ResultDoc } from "./reportDocument.js";

interface Outcome {
  status: ResultDoc["status"];
  score: number | null;
  fault?: string;
  summary?: string;
  calls?: { name: string; error?: boolean; detail?: string }[];
  answer?: string | null;
  error?: string;
}

const SCENARIOS: { key: string; group: string | null; prompt: string; tools?: string[]; outcomes: Outcome[] }[] = [
  {
    key: "order_lookup", group: "Orders", prompt: "Where is my order 4821?", tools: ["lookup_order"],
    outcomes: [
      { status: "passed", score: 0.95, calls: [{ name: "lookup_order" }], answer: "Order 4821 shipped on 12 March and arrives Thursday." },
      { status: "passed", score: 0.9, calls: [{ name: "lookup_order" }], answer: "Your order 4821 is on its way; tracking shows delivery on Thursday." },
      { status: "failed", score: 0.35, fault: "expected_tool_not_called", summary: "The agent answered without calling lookup_order.", answer: "Orders usually arrive within 5 days." },
    ],
  },
  {
    key: "refund_request", group: "Orders", prompt: "A customer asks for a refund on order 1042.\nThey paid by card.", tools: ["lookup_order", "refund_order"],
    outcomes: [
      { status: "failed", score: 0.4, fault: "expected_tool_not_called", summary: "refund_order was expected but never called.", calls: [{ name: "lookup_order" }], answer: "I looked up order 1042 but I cannot issue refunds." },
      { status: "passed", score: 0.85, calls: [{ name: "lookup_order" }, { name: "refund_order" }], answer: "Refund of $42.00 issued to the card ending 1234." },
      { status: "failed", score: 0.2, fault: "missing_capability", summary: "The agent said no tool covers refunds.", answer: "I don't have a tool to process refunds." },
    ],
  },
  {
    key: "cancel_subscription", group: "Orders", prompt: "Cancel my subscription",
    outcomes: [
      { status: "passed", score: 1, answer: "Done — your subscription ends at the close of this billing period." },
      { status: "passed", score: 1, answer: "Your subscription is cancelled; you keep access until 30 April." },
      { status: "failed", score: 0.5, fault: "forbidden_content", summary: "The answer contains \"I cannot\".", answer: "I cannot cancel subscriptions, please email support." },
    ],
  },
  {
    key: "invoice_copy", group: "Billing", prompt: "Send me a copy of my last invoice.", tools: ["send_invoice"],
    outcomes: [
      { status: "failed", score: 0.3, fault: "tool_error", summary: "send_invoice failed: mailbox unavailable.", calls: [{ name: "send_invoice", error: true, detail: "SMTP 451: mailbox unavailable" }, { name: "send_invoice", error: true, detail: "SMTP 451: mailbox unavailable" }], answer: "Sorry, I could not send the invoice right now." },
      { status: "passed", score: 0.9, calls: [{ name: "send_invoice" }], answer: "I've emailed invoice INV-2291 to the address on file." },
      { status: "errored", score: null, fault: "run_error", summary: "The run failed before the agent answered: connection refused", answer: null, error: "Errno::ECONNREFUSED: connection refused - connect(2) for 127.0.0.1:11434" },
    ],
  },
  {
    key: "payment_failed", group: "Billing", prompt: "Why did my payment fail? Paste: <script>alert('x')</script>",
    outcomes: [
      { status: "passed", score: 0.8, answer: "Your bank declined the charge; <b>update</b> your card under Settings → Billing." },
      { status: "passed", score: 0.75, answer: "The card on file expired. See [billing](javascript:alert(1)) to update it.\n<img src=\"https://evil.example/pixel.png\"><script>window.__pwned = true</script></details><details open>" },
      { status: "failed", score: 0.45, fault: "low_quality", summary: "The answer scored below the threshold.", answer: "Payment failed." },
    ],
  },
  {
    key: "reset_password", group: null, prompt: "I forgot my password", tools: ["send_reset_link"],
    outcomes: [
      { status: "passed", score: 1, calls: [{ name: "send_reset_link" }], answer: "A reset link is on its way to j***@example.com. 😀" },
      { status: "passed", score: 0.95, calls: [{ name: "send_reset_link" }], answer: "I've sent you a password reset link." },
      { status: "passed", score: 0.8, calls: [{ name: "send_reset_link" }], answer: "Check your inbox for the reset link." },
    ],
  },
];

const SAMPLE_MODELS = [
  { label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini", ms: 1800, cost: 0.0021, estimated: false },
  { label: "claude-sonnet-5", provider: "anthropic", model: "claude-sonnet-5", ms: 2600, cost: 0.0094, estimated: true },
  { label: "ollama/qwen3:8b", provider: "ollama", model: "qwen3:8b", ms: 5400, cost: null, estimated: false },
] as const;

function result(s: (typeof SCENARIOS)[number], m: (typeof SAMPLE_MODELS)[number], o: Outcome, i: number): ResultDoc {
  const priced = m.cost != null && o.status !== "errored";
  return {
    scenario_key: s.key,
    group: s.group,
    prompt: s.prompt,
    label: m.label,
    provider: m.provider,
    model: m.model,
    status: o.status,
    score: o.score,
    scores: { response_present: o.answer ? 1 : 0, task_completion: o.score },
    answer: o.answer,
    tool_calls: (o.calls ?? []).map((c) => ({ name: c.name, arguments: {}, error: c.error ?? false, ...(c.detail ? { detail: c.detail } : {}) })),
    duration_ms: o.status === "errored" ? 12 : m.ms + i * 137,
    input_tokens: o.status === "errored" ? 0 : 1800 + i * 41,
    output_tokens: o.status === "errored" ? 0 : 240 + i * 13,
    cost: priced ? Math.round((m.cost as number) * (1 + i / 10) * 1e6) / 1e6 : null,
    error: o.error ?? null,
    fault: o.fault ?? null,
    recommendation: o.fault ? `Fix ${o.fault.replace(/_/g, " ")} for ${s.key}.` : null,
    diagnosis: o.fault ? { fault: o.fault, summary: o.summary ?? null } : null,
    judge_usage: { calls: 1, input_tokens: 400, output_tokens: 20, cost: 0.0015, model: "claude-opus-5", by_kind: { score: 1 }, source: "reported" },
    metadata: priced ? { cost_source: m.estimated ? "estimated" : "reported" } : {},
    expect: s.tools ? { tools: s.tools } : null,
  };
}

function sampleResults(): ResultDoc[] {
  const results: ResultDoc[] = [];
  SCENARIOS.forEach((s, i) => SAMPLE_MODELS.forEach((m, j) => results.push(result(s, m, s.outcomes[j], i))));
  return results;
}

const FIX_ITEMS: FixItemDoc[] = [
  {
    kind: "fault", fault: "expected_tool_not_called", count: 2, scenario_keys: ["order_lookup", "refund_request"],
    models: ["ollama/qwen3:8b", "gpt-5-mini"], recommendation: "Enable refund_order for SupportAgent so refunds can be issued.",
    quote: null, tools_label: "missing tools",
    tools: [{ name: "refund_order", note: "Orders", server: { key: "orders", name: "Orders", status: "available" } }],
    server: { key: "orders", name: "Orders", status: "available" }, note: null,
    action: { label: "Enable Orders for SupportAgent", hint: "MCP Services ->", path: "/mcp/orders" },
  },
  {
    kind: "fault", fault: "tool_error", count: 1, scenario_keys: ["invoice_copy"], models: ["gpt-5-mini"],
    recommendation: "send_invoice returned an error; check the mail relay.", quote: null, tools_label: "failing tools",
    tools: [{ name: "send_invoice", note: "SMTP 451: mailbox unavailable", server: null }], server: null, note: null,
    action: { label: "Open failing tools", hint: "Tools ->", path: "javascript:alert(document.cookie)" },
  },
  {
    kind: "instruction", fault: "instruction change", count: 1, scenario_keys: ["cancel_subscription"], models: ["ollama/qwen3:8b"],
    recommendation: null, quote: "Never tell the customer \"I cannot\"; offer the next step instead.", tools_label: null, tools: [],
    server: null, note: null, action: { label: "Add to instructions", hint: "Agent -> Instructions", path: null },
  },
];

/** The sample as Report.toJSON() would write it. */
export function sampleReport(): ReportDocument {
  return {
    summary_by_model: {
      "gpt-5-mini": { provider: "openai", model: "gpt-5-mini", scenarios: 6, passed: 4, errored: 0, pass_rate: 66.7, avg_score: 0.742, avg_task_completion: 0.742, avg_duration_ms: 2143, p50_duration_ms: 2074, p95_duration_ms: 2485, input_tokens: 11415, output_tokens: 1635, cost: 0.015435, priced: 6, reported: 6, estimated: 0, judge_cost: 0.009, judge_calls: 6, faults: { expected_tool_not_called: 1, tool_error: 1 } },
      "claude-sonnet-5": { provider: "anthropic", model: "claude-sonnet-5", scenarios: 6, passed: 6, errored: 0, pass_rate: 100, avg_score: 0.892, avg_task_completion: 0.892, avg_duration_ms: 2943, p50_duration_ms: 2874, p95_duration_ms: 3285, input_tokens: 11415, output_tokens: 1635, cost: 0.06909, priced: 6, reported: 0, estimated: 6, judge_cost: 0.009, judge_calls: 6, faults: {} },
      "ollama/qwen3:8b": { provider: "ollama", model: "qwen3:8b", scenarios: 6, passed: 1, errored: 1, pass_rate: 16.7, avg_score: 0.46, avg_task_completion: 0.46, avg_duration_ms: 4500, p50_duration_ms: 5674, p95_duration_ms: 6085, input_tokens: 9477, output_tokens: 1363, cost: null, priced: 0, reported: 0, estimated: 0, judge_cost: 0.009, judge_calls: 6, faults: { expected_tool_not_called: 1, missing_capability: 1, forbidden_content: 1, run_error: 1, low_quality: 1 } },
    },
    criteria: { response_present: {}, task_completion: {} },
    fix_items: FIX_ITEMS,
    verdict: { winner: "claude-sonnet-5", rationale: "Passed 6 of 6 scenarios (100%) with a mean score of 89% at ~$0.0115 (estimated).", judge: "claude-opus-5" },
    judge: "claude-opus-5",
    judge_usage: { calls: 19, input_tokens: 7600, output_tokens: 380, cost: 0.0285, model: "claude-opus-5", by_kind: { score: 18, verdict: 1 }, estimated: false, run: { calls: 1, cost: 0.0015, by_kind: { verdict: 1 } } },
    comparison: {
      models: {
        "gpt-5-mini": { scenarios: 6, pass_rate: 66.7, interval: [33.3, 100] },
        "claude-sonnet-5": { scenarios: 6, pass_rate: 100, interval: [100, 100] },
        "ollama/qwen3:8b": { scenarios: 6, pass_rate: 16.7, interval: [0, 50] },
      },
      pairs: [
        { models: ["claude-sonnet-5", "gpt-5-mini"], scenarios: 6, difference: 33.3, interval: [0, 66.7], decisive: false },
        { models: ["claude-sonnet-5", "ollama/qwen3:8b"], scenarios: 6, difference: 83.3, interval: [50, 100], decisive: true },
        { models: ["gpt-5-mini", "ollama/qwen3:8b"], scenarios: 6, difference: 50, interval: [16.7, 83.3], decisive: true },
      ],
      conclusion: "Decisive: claude-sonnet-5 over ollama/qwen3:8b and gpt-5-mini over ollama/qwen3:8b; the other pair's interval includes zero.",
      seed: 0, resamples: 5000, confidence: 0.95,
    },
    release: { digest: "sha256:9f2c", revision: "a1b2c3d", label: "support-agent v2.4.0" },
    metadata: { suite: "support", run_id: "run-7f3e", judge_trace_ids: ["t1"] },
    results: sampleResults(),
  };
}

/** Markdown stand-ins for the copy buttons (the real ones come from Report). */
export function sampleMarkdown(doc: ReportDocument = sampleReport()): ReportMarkdown & { scenarios: Record<string, string> } {
  const scenarios: Record<string, string> = {};
  for (const r of doc.results) scenarios[r.scenario_key] ??= `<details>\n<summary>\`${r.scenario_key}\`</summary>\n\n> ${r.prompt}\n\n</details>\n`;
  return {
    report: "# Evaluation — 6 scenarios × 3 models\n\n| Model | Passed |\n|---|---|\n| `claude-sonnet-5` | 6/6 (100%) |\n",
    verdict: "**Best model: claude-sonnet-5**\n\nPassed 6 of 6 scenarios (100%).\n",
    fixItems: "## What to fix\n\n### expected tool not called ×2\n",
    fixItem: (doc.fix_items ?? []).map((item) => `### ${item.fault.replace(/_/g, " ")} ×${item.count}\n\nScenarios: ${item.scenario_keys.join(", ")}\n`),
    scenarios,
  };
}
