// A realistic run for the browser test, built the way a host builds one: a pasted suite, three
// candidate models, a scripted agent (passes, a tool error, a missing tool, forbidden content,
// an errored replay, one answer carrying hostile markup) and a scripted judge, through the
// Runner to a Report.

import { Judge, ModelSpec, Report, Runner, ScenarioParser } from "@verdict/domain";
import { fakeResult, model } from "../../domain/report/testing.js";

const SUITE = [
  "# Orders",
  "Where is my order 4821? | tools: lookup_order",
  "A customer asks for a refund on order 1042. They paid by card. | tools: lookup_order, refund_order",
  "Cancel my subscription | not_contains: I cannot",
  "# Billing",
  "Send me a copy of my last invoice. | tools: send_invoice",
  "Why did my payment fail? I pasted <script>alert('x')</script> from the email.",
  "# Account",
  "I forgot my password | tools: send_reset_link",
].join("\n");

/** The answer that tries to break out of the page: it must stay text, load nothing, run nothing. */
export const HOSTILE_ANSWER =
  'The card on file expired. See [billing](javascript:alert(1)) to update it.\n' +
  '<img src="https://evil.example/pixel.png"><script>window.__pwned = true</script></details></pre><details open>';

type Scripted = { answer?: string | null; tools?: string[]; failing?: string; error?: string };

/** What each model answers, by scenario position; `undefined` throws (an errored replay). */
const SCRIPT: Record<string, Scripted[]> = {
  "gpt-5-mini": [
    { answer: "Order 4821 shipped on 12 March and arrives Thursday.", tools: ["lookup_order"] },
    { answer: "I looked up order 1042 but I have no way to refund it.", tools: ["lookup_order"] },
    { answer: "Done — your subscription ends at the close of this billing period." },
    { answer: "Sorry, I could not send the invoice right now.", tools: ["send_invoice", "send_invoice"], failing: "send_invoice" },
    { answer: "Your bank declined the charge; update your card under Settings → Billing." },
    { answer: "A reset link is on its way to j***@example.com.", tools: ["send_reset_link"] },
  ],
  "claude-sonnet-5": [
    { answer: "Your order 4821 is on its way; tracking shows delivery on Thursday.", tools: ["lookup_order"] },
    { answer: "Refund of $42.00 issued to the card ending 1234.", tools: ["lookup_order", "refund_order"] },
    { answer: "Your subscription is cancelled; you keep access until 30 April." },
    { answer: "I've emailed invoice INV-2291 to the address on file.", tools: ["send_invoice"] },
    { answer: HOSTILE_ANSWER },
    { answer: "I've sent you a password reset link.", tools: ["send_reset_link"] },
  ],
  "ollama/qwen3:8b": [
    { answer: "Orders usually arrive within 5 days." },
    { answer: "I don't have a tool to process refunds." },
    { answer: "I cannot cancel subscriptions, please email support." },
    { error: "Errno::ECONNREFUSED: connection refused - connect(2) for 127.0.0.1:11434" },
    { answer: "Payment failed." },
    { answer: "Check your inbox for the reset link.", tools: ["send_reset_link"] },
  ],
};

const PRICES: Record<string, { cost: number | null; estimated: boolean }> = {
  "gpt-5-mini": { cost: 0.0021, estimated: false },
  "claude-sonnet-5": { cost: 0.0094, estimated: true },
  "ollama/qwen3:8b": { cost: null, estimated: false },
};

function scriptedJudge(): Judge {
  return new Judge({
    label: "claude-opus-5",
    complete: ({ instructions, prompt }) => {
      const usage = { input_tokens: 400, output_tokens: 20, cost: 0.0015, model: "claude-opus-5" };
      if (instructions.includes("comparing model cohorts")) {
        return { text: JSON.stringify({ winner: "claude-sonnet-5", rationale: "Solved every task, including the refund, with the tools it was given." }), usage };
      }
      if (instructions.includes("recommend the fix")) {
        const refund = prompt.includes("refund");
        const vague = prompt.includes("Payment failed.");
        return {
          text: JSON.stringify({
            recommendation: refund ? "Give the agent a refund tool and say when to use it." : "Answer from the tool's result, not from general knowledge.",
            ...(refund ? { suggested_tool: { name: "refund_order", description: "Refund an order to its original payment method" } } : {}),
            ...(vague ? { instruction_change: "When a payment fails, name the reason the bank gave and the next step." } : {}),
          }),
          usage,
        };
      }
      const weak = /usually|cannot|don't have|Payment failed\.|no way/.test(prompt);
      return { text: JSON.stringify({ score: weak ? 0.3 : 0.9 }), usage };
    },
  });
}

export async function buildSampleReport(): Promise<Report> {
  const scenarios = ScenarioParser.scenarios(SUITE);
  const models = ModelSpec.parseAll(Object.keys(SCRIPT), { defaultProvider: "openai" });
  const position = new Map(scenarios.map((s, i) => [s.key, i]));
  return new Runner({
    scenarios,
    models,
    judge: scriptedJudge(),
    agentName: "SupportAgent",
    instructions: "You are the support agent for Acme. Use the tools to look things up.",
    availableTools: { lookup_order: "Find an order by number", send_invoice: "Email an invoice", send_reset_link: "Email a reset link" },
    metadata: { suite: "support", run_id: "run-7f3e" },
    release: { label: "support-agent v2.4.0", revision: "a1b2c3d" },
    toolResolver: (name) => (name === "refund_order" ? { key: "orders", name: "Orders", status: "available" } : null),
    links: { mcp: "/mcp/%{key}", tools: "/tools", instructions: "/agent/instructions" },
    replay: (scenario, spec) => {
      const step = SCRIPT[spec.label][position.get(scenario.key) ?? 0];
      if (step.error) throw new Error(step.error);
      const index = position.get(scenario.key) ?? 0;
      const price = PRICES[spec.label];
      return {
        answer: step.answer,
        toolCalls: (step.tools ?? []).map((name) => ({
          name,
          arguments: { id: 4821 },
          error: name === step.failing,
          ...(name === step.failing ? { detail: "SMTP 451: mailbox unavailable" } : {}),
        })),
        durationMs: 1200 + index * 370 + spec.label.length * 41,
        inputTokens: 1800 + index * 41,
        outputTokens: 240 + index * 13,
        cost: price.cost === null ? null : Math.round(price.cost * (1 + index / 10) * 1e6) / 1e6,
        metadata: price.estimated ? { cost_source: "estimated", cost_rate: { input: 3, output: 15, source: "catalog" } } : {},
      };
    },
  }).run();
}

/** A model label (130 characters) and a scenario key with no space in them to break at. */
export const LONG_LABEL = `openrouter/${"very-long-model-name-".repeat(2)}${"x".repeat(130 - 11 - 42)}`;
const LONG_KEY = `scenario_${"k".repeat(200)}`;

/**
 * Text the page cannot break at spaces: a 400-character word and a URL in recommendations, a
 * 400-character metadata value, a long tool name, model label and scenario key. Nothing on the
 * page may grow wider than the window because of it.
 */
export function buildLongTextReport(): Report {
  const word = "x".repeat(400);
  const results = [
    fakeResult({ key: LONG_KEY, label: LONG_LABEL, score: 0.2, diagnosis: { fault: "tool_error", summary: `Failed ${word}`, recommendation: `Call https://example.com/${"p".repeat(150)}` }, toolCalls: [{ name: "t".repeat(150), error: true, detail: "d".repeat(200) }] }),
    fakeResult({ key: LONG_KEY, label: "m2" }),
    fakeResult({ key: "short", label: LONG_LABEL, score: 0.1, diagnosis: { fault: "low_quality", summary: "s", recommendation: word } }),
    fakeResult({ key: "short", label: "m2", score: 0.1, diagnosis: { fault: "low_quality", summary: "s", recommendation: word } }),
  ];
  return new Report({ results, models: [model(LONG_LABEL), model("m2")], agentName: "SupportAgent", metadata: { suite: "support", note: word } });
}
