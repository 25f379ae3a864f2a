// The worker prices a replay its agent returned without a cost from the operator's price table
// (VERDICT_PRICES) before recording it: the recorded ReplayRecorded holds the estimated cost and
// its rate, and the report rebuilt from the events shows it with `~` and the legend. A model the
// table does not name stays unpriced; a reported cost is kept; tokens 0/0 are no_usage.
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { ScriptedAgent } from "@verdict/infra/agents";
import { COST_LIMIT, Format, PriceTable, type EventData, type EventStore } from "@verdict/domain";
import { startWorker, type RunningWorker } from "./startWorker.js";
import { recordedRun } from "./testingRecordedRun.js";
import { CLAUDE, GPT, RecordingBus, pairEvents, runEnded, seedRun, testWorkerOptions, waitFor } from "./testing.js";

const LEGEND = "~ estimated from tokens × model rates";

// gpt-5-mini: order_status reports tokens only, greeting a cost of its own, refund no usage at
// all; every claude-sonnet-5 reply reports tokens only.
const PRICED_AGENT = `
default: { answer: "I can help with that. Here is what I found for you today.", input_tokens: 200, output_tokens: 40 }
replies:
  - key: order_status
    models: [gpt-5-mini]
    answer: "Order 4821 shipped yesterday and arrives Friday; here is the tracking link."
    tool_calls: [{ name: lookup_order }]
    input_tokens: 120
    output_tokens: 30
  - key: greeting
    models: [gpt-5-mini]
    answer: "Hello! How can I help you with your order today, then?"
    input_tokens: 100
    output_tokens: 20
    cost: 0.01
  - key: refund
    models: [gpt-5-mini]
    answer: "I have started the refund for your order; it takes five days."
    input_tokens: 0
    output_tokens: 0
`;

const TABLE = PriceTable.parse("models:\n  gpt-5-mini: { input: 2.5, output: 10 }\n", "prices.yaml");

let worker: RunningWorker | null = null;
afterEach(async () => {
  await worker?.stop();
  worker = null;
});

/** A run of SCENARIOS x [GPT, CLAUDE] through the worker, then its replays and the report rebuilt from the events. */
async function pricedRun(prices: PriceTable | null) {
  const store = createMemoryEventStore();
  worker = await startWorker(testWorkerOptions(store, new RecordingBus(), { runtime: ScriptedAgent.fromYaml(PRICED_AGENT), prices }));
  await seedRun(store, { models: [GPT, CLAUDE] });
  await waitFor(() => runEnded(store, "r1"));
  return rebuilt(store);
}

const rebuilt = (store: EventStore) => recordedRun(store, "r1");

// Pair n is scenario floor(n / 2) x model n % 2: 0 order_status x gpt, 1 order_status x claude,
// 2 greeting x gpt, 4 refund x gpt.
describe("a run with a price table (VERDICT_PRICES)", () => {
  it("records the estimated cost and its rate, keeps a reported cost, estimates 0/0 tokens of a model in the table at $0 and leaves a model not in the table unpriced", async () => {
    const { replays, report, summary } = await pricedRun(TABLE);
    const estimated = replays.get(0)!.replay;
    expect(estimated.cost).toBe(120 * (2.5 / 1e6) + 30 * (10 / 1e6));
    expect(estimated.metadata).toEqual({
      cost_source: "estimated",
      cost_rate: { input: 2.5, output: 10, source: "price table", basis: "tokens", input_tokens: 120, output_tokens: 30, key: "gpt-5-mini", matched: "label" },
    });
    // claude-sonnet-5 is not in the table: recorded as the agent gave it, unpriced.
    for (const n of [1, 3, 5]) {
      expect(replays.get(n)!.replay).not.toHaveProperty("cost");
      expect(replays.get(n)!.replay.metadata).toEqual({});
    }
    // The agent's own cost is kept; tokens 0/0 of a model the table names are estimated at $0
    // with the rate (reference-platform #22: estimated comes before no_usage).
    expect(replays.get(2)!.replay).toMatchObject({ cost: 0.01, metadata: {} });
    expect(replays.get(4)!.replay).toMatchObject({
      cost: 0,
      metadata: { cost_source: "estimated", cost_rate: { input: 2.5, output: 10, input_tokens: 0, output_tokens: 0, key: "gpt-5-mini", matched: "label" } },
    });

    // The pair's own cost cell reads as estimated, from what was recorded.
    expect(report.toMarkdown()).toMatch(/\| `gpt-5-mini` \| ✅ passed \| 100% \| lookup_order \| — \| ~\$0\.000600 \|/);
    // The page's tooltip shows the working from input, output and source; cost_rate's key and matched add nothing to it.
    const titles = [...report.toHtml({ theme: "light" }).matchAll(/title="(estimated[^"]*)"/g)].map((m) => m[1]);
    expect(titles).toContain("estimated: 120 in × $2.50/M + 30 out × $10.00/M · price table rate");
    for (const title of titles) expect(title).not.toMatch(/label|matched|key/);
    const byModel = (report.toJSON() as unknown as { summary_by_model: Record<string, Record<string, unknown>> }).summary_by_model;
    expect(byModel["gpt-5-mini"]).toMatchObject({ priced: 3, reported: 1, estimated: 2 });
    expect(byModel["claude-sonnet-5"]).toMatchObject({ priced: 0 });
    // The completion's summary is the rebuilt report's, from the same recorded figures.
    const { results: _results, ...rebuiltSummary } = report.toJSON() as unknown as Record<string, unknown>;
    expect(JSON.stringify(rebuiltSummary)).toBe(JSON.stringify(summary));
  });

  it("without a table records no estimate: the pair stays unpriced, tokens 0/0 are still no_usage", async () => {
    const { replays, report } = await pricedRun(null);
    expect(replays.get(0)!.replay).not.toHaveProperty("cost");
    expect(replays.get(0)!.replay.metadata).toEqual({});
    expect(replays.get(4)!.replay).toMatchObject({ cost: 0, metadata: { cost_source: "no_usage" } });
    expect(report.toMarkdown()).toMatch(/\| `gpt-5-mini` \| ✅ passed \| 100% \| lookup_order \| — \| — \|/);
  });

  it("a model whose every replay is estimated reads ~$ with the legend; the same run without a table has neither", async () => {
    const tokensOnly = "default: { answer: \"I can help with that. Here is what I found for you today.\", input_tokens: 1000, output_tokens: 100 }\n";
    const markdownOf = async (prices: PriceTable | null) => {
      const store = createMemoryEventStore();
      worker = await startWorker(testWorkerOptions(store, new RecordingBus(), { runtime: ScriptedAgent.fromYaml(tokensOnly), prices }));
      await seedRun(store, { models: [GPT] });
      await waitFor(() => runEnded(store, "r1"));
      const markdown = (await rebuilt(store)).report.toMarkdown();
      await worker.stop();
      worker = null;
      return markdown;
    };
    // 3 pairs x (1,000 x $2.50/M + 100 x $10/M) = 3 x $0.0035.
    const priced = await markdownOf(TABLE);
    expect(priced).toContain("| ~$0.0105 |");
    expect(priced).toContain(LEGEND);
    const unpriced = await markdownOf(null);
    expect(unpriced).not.toContain("~$");
    expect(unpriced).not.toContain(LEGEND);
  });

  it("records what a host records on an external run as sent: the table does not price it", async () => {
    const store = createMemoryEventStore();
    worker = await startWorker(testWorkerOptions(store, new RecordingBus(), { prices: TABLE }));
    await seedRun(store, { external: true, models: [GPT] });
    const { hostRecords } = await import("./testingHost.js");
    await hostRecords(store, "r1", [{ scenario_key: "order_status", model_label: GPT.label, replay: { answer: "Order 4821 ships Friday.", input_tokens: 120, output_tokens: 30 } }]);
    await waitFor(async () => (await pairEvents(store, "r1", 0)).length === 2);
    const [replayed, scored] = await pairEvents(store, "r1", 0);
    expect(scored.type).toBe("ResultScored");
    expect((replayed.data as EventData<"ReplayRecorded">).replay).toMatchObject({ input_tokens: 120, output_tokens: 30, metadata: {} });
    expect((replayed.data as EventData<"ReplayRecorded">).replay).not.toHaveProperty("cost");
  });

  it("records a pair whose estimate is past what an event may hold unpriced, answer and tokens kept, and logs it once, not per replay", async () => {
    // $1 a token (the most a table takes) x 2e9 tokens: $2e9, past COST_LIMIT ($1e9). It was a run_error.
    const dear = PriceTable.parse("models:\n  gpt-5-mini: { input: 1000000, output: 1 }\n", "prices.yaml");
    const agent = 'default: { answer: "I can help with that. Here is what I found for you today.", input_tokens: 2000000000, output_tokens: 100 }\n';
    const store = createMemoryEventStore();
    const errors: string[] = [];
    const log = { info: () => undefined, error: (message: string) => void errors.push(message) };
    worker = await startWorker(testWorkerOptions(store, new RecordingBus(), { runtime: ScriptedAgent.fromYaml(agent), prices: dear, log }));
    await seedRun(store, { models: [GPT] });
    await waitFor(() => runEnded(store, "r1"));
    const { replays, report } = await rebuilt(store);
    expect(replays.size).toBe(3);
    for (const { replay } of replays.values()) {
      expect(replay).not.toHaveProperty("error");
      expect(replay).not.toHaveProperty("cost");
      expect(replay).toMatchObject({ answer: "I can help with that. Here is what I found for you today.", input_tokens: 2_000_000_000, output_tokens: 100, metadata: {} });
    }
    expect(report.toMarkdown()).not.toContain("Infinity");
    const said = errors.filter((line) => line.includes("not priced"));
    expect(said).toEqual([
      `gpt-5-mini: not priced: 2000000000 input and 100 output tokens at the price table's rate for "gpt-5-mini" (input 1000000, output 1 USD per million) ` +
        `come to 2000000000.0001 USD, past the ${COST_LIMIT} USD a recorded cost may be; the replay is left unpriced (check that rate)`,
    ]);
  });

  it("records a replay that gave no token count (or one) with a lower-bound estimate from the scenario prompt's and the answer's characters: basis chars, counts kept as given", async () => {
    // order_status (prompt "Where is order 4821?", 20 characters: 5 tokens) answers 29
    // characters (8 tokens) and gives no count; greeting gives its input count only.
    const agent = `
default: { answer: "Order 4821 arrives on Friday." }
replies:
  - key: greeting
    answer: "Hello! 👋"
    input_tokens: 100
`;
    const store = createMemoryEventStore();
    worker = await startWorker(testWorkerOptions(store, new RecordingBus(), { runtime: ScriptedAgent.fromYaml(agent), prices: TABLE }));
    await seedRun(store, { models: [GPT] });
    await waitFor(() => runEnded(store, "r1"));
    const { replays, report, summary } = await rebuilt(store);
    const order = replays.get(0)!.replay;
    expect(order.cost).toBe(5 * (2.5 / 1e6) + 8 * (10 / 1e6));
    expect(order.metadata).toEqual({
      cost_source: "estimated",
      cost_rate: {
        input: 2.5, output: 10, source: "price table", basis: "chars", lower_bound: true, input_tokens: 5, output_tokens: 8, prompt_chars: 20, answer_chars: 29,
        key: "gpt-5-mini", matched: "label",
      },
    });
    // The event records the counts as the agent gave them: none; the estimate lives in cost_rate.
    expect(order).not.toHaveProperty("input_tokens");
    expect(order).not.toHaveProperty("output_tokens");
    // greeting: 100 input tokens as given; "Hello! 👋" is 8 characters (code points; 9 UTF-16 units): 2 tokens.
    const greeting = replays.get(1)!.replay;
    expect(greeting).toMatchObject({ input_tokens: 100, cost: 100 * (2.5 / 1e6) + 2 * (10 / 1e6) });
    expect(greeting).not.toHaveProperty("output_tokens");
    expect(greeting.metadata.cost_rate).toMatchObject({ basis: "chars", input_tokens: 100, output_tokens: 2, answer_chars: 8 });
    expect(greeting.metadata.cost_rate).not.toHaveProperty("prompt_chars");

    // The report shows each as an estimate (~), its legend and tooltip say lower bound, and it is counted estimated.
    const markdown = report.toMarkdown();
    expect(markdown).toContain("~$0.000093 |");
    expect(markdown).toContain(`_${Format.CHARS_LEGEND}_`);
    expect(report.toHtml({ theme: "light" })).toContain('title="lower bound: 5 in (20 prompt chars ÷ 4) × $2.50/M + 8 out (29 answer chars ÷ 4) × $10.00/M · price table rate"');
    const json = report.toJSON() as unknown as { summary_by_model: Record<string, Record<string, unknown>> };
    // Only the 100 input tokens greeting gave are summed as tokens; the worked-out counts are not.
    expect(json.summary_by_model["gpt-5-mini"]).toMatchObject({ priced: 3, estimated: 3, reported: 0, input_tokens: 100, output_tokens: 0 });
    const { results: _results, ...rebuiltSummary } = report.toJSON() as unknown as Record<string, unknown>;
    expect(JSON.stringify(rebuiltSummary)).toBe(JSON.stringify(summary));
  });
});
