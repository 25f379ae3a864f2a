// A cost worked out from characters (domain/pricing's chars step, `cost_rate.basis: "chars"`)
// reads as an estimate on every surface, says it is a lower bound where the working is shown
// (the page's tooltip, the legend of the Markdown and the page, the JSON's cost_rate), and never
// as tokens the agent reported: the report's token sums hold the counts the replay gave.
import { describe, expect, it } from "vitest";
import { Format } from "../format/index.js";
import { ModelSpec } from "../models/index.js";
import { PriceTable, priceReplay } from "../pricing/index.js";
import { Replay } from "../replay/index.js";
import { Report } from "./index.js";
import { sampleReport } from "./html/sampleReport.js";
import { Runner } from "../runner/index.js";
import { Scenario } from "../scenarios/index.js";

const table = PriceTable.parse("models:\n  m1: { input: 2.5, output: 10 }\n", "prices.yaml");
// 40 characters: 10 input tokens by the chars estimate.
const PROMPT = "Where is order 4821? It was due Tuesday.";
// 32 characters: 8 output tokens.
const ANSWER = "Order 4821 ships Friday morning.";

/** A run of one scenario on m1 whose replay gives `init`, priced as the worker prices it. */
async function reportOf(init: { inputTokens?: number; outputTokens?: number }) {
  const scenarios = [new Scenario({ key: "order", prompt: PROMPT })];
  const models = [ModelSpec.parse("m1", { defaultProvider: "openai" })];
  const replay = (scenario: Scenario, spec: ModelSpec) => priceReplay(new Replay({ answer: ANSWER, ...init }), spec, scenario.prompt, table);
  return new Runner({ scenarios, models, replay }).run();
}

describe("a report holding a cost worked out from characters", () => {
  it("marks it ~ and says lower bound in the Markdown's legend; a tokens estimate keeps the plain legend", async () => {
    const markdown = (await reportOf({ inputTokens: 1_000 })).toMarkdown();
    // 1,000 given input tokens × $2.50/M + 8 output tokens from the answer × $10/M = $0.00258.
    expect(markdown).toContain("| `m1` | ✅ passed | — | — | — | ~$0.0026 |");
    // The verdict's token column sums what the replay gave: the 8 output tokens worked out are not there.
    expect(markdown).toContain("| `m1` | 1/1 (100%) | — | — | — | — | 1000/0 | ~$0.0026 |");
    expect(markdown).toContain(`_${Format.CHARS_LEGEND}_`);
    expect(Format.CHARS_LEGEND).toBe("~ estimated from tokens × model rates; where a replay gave no token count, from its prompt and answer characters ÷ 4: a lower bound");
    const tokens = (await reportOf({ inputTokens: 1_000, outputTokens: 8 })).toMarkdown();
    expect(tokens).toContain("~$0.0026");
    expect(tokens).toContain(`_${Format.LEGEND}_`);
    expect(tokens).not.toContain("lower bound");
  });

  it("shows the working on the page, with the counts it priced and the characters behind them, and the lower-bound legend", async () => {
    const html = (await reportOf({ outputTokens: 30 })).toHtml({ theme: "light" });
    expect(html).toContain('title="lower bound: 10 in (40 prompt chars ÷ 4) × $2.50/M + 30 out × $10.00/M · price table rate"');
    expect(html).toContain(`<span class="legend">${Format.CHARS_LEGEND}</span>`);
    expect(html).not.toContain('title="estimated:');
  });

  it("records basis chars and lower_bound in the JSON, counts it estimated, and sums only the tokens the replay gave", async () => {
    const report = await reportOf({ inputTokens: 1_000 });
    const json = report.toJSON() as unknown as {
      results: Array<{ input_tokens?: number | null; output_tokens?: number | null; cost: number; metadata: Record<string, unknown> }>;
      summary_by_model: Record<string, Record<string, unknown>>;
    };
    const [result] = json.results;
    expect(result.metadata.cost_source).toBe("estimated");
    expect(result.metadata.cost_rate).toMatchObject({ basis: "chars", lower_bound: true, input_tokens: 1_000, output_tokens: 8, answer_chars: 32 });
    // The agent gave no output count: none is recorded, and the 8 worked out are not summed as reported tokens.
    expect(result.output_tokens ?? null).toBeNull();
    expect(json.summary_by_model.m1).toMatchObject({ priced: 1, estimated: 1, reported: 0, input_tokens: 1_000, output_tokens: 0 });
  });
});

describe("an imported report whose cost_rate says basis chars but was not written by this platform", () => {
  /**
   * The sample report with its estimated results' cost_rate as the reference (reference-platform
   * #22) or another install writes one: `basis: "chars"` with counts of its own, no `lower_bound`,
   * its own source, and no token counts on the result.
   */
  function foreignDoc(rate: Record<string, unknown> = {}) {
    const doc = JSON.parse(JSON.stringify(sampleReport()));
    for (const result of doc.results) {
      if (result.metadata?.cost_source !== "estimated") continue;
      result.metadata.cost_rate = { input: 2.5, output: 10, source: "catalog", basis: "chars", input_tokens: 12, output_tokens: 40, prompt_chars: 48, ...rate };
      delete result.input_tokens;
      delete result.output_tokens;
    }
    return doc;
  }

  it("renders as before the chars reading (884fe9e's bytes: the plain legend and tooltip)", () => {
    const report = Report.fromJSON(foreignDoc());
    const markdown = report.toMarkdown();
    const html = report.toHtml({ theme: "light" });
    // What 884fe9e renders for this document (checked against a build of it, byte for byte).
    expect(markdown).toMatch(/\n---\n\n_~ estimated from tokens × model rates_\n$/);
    expect(html).toContain('title="estimated: 0 in × $2.50/M + 0 out × $10.00/M · catalog rate"');
    expect(html).toContain(`<span class="legend">${Format.LEGEND}</span>`);
    for (const text of [markdown, html]) expect(text).not.toContain("lower bound");
  });

  it("reads the same rate as a lower bound once it is this platform's own (lower_bound true, the price table's)", () => {
    const report = Report.fromJSON(foreignDoc({ source: "price table", lower_bound: true }));
    expect(report.toMarkdown()).toContain(`_${Format.CHARS_LEGEND}_`);
    expect(report.toHtml({ theme: "light" })).toContain('title="lower bound: 12 in (48 prompt chars ÷ 4) × $2.50/M + 40 out × $10.00/M · price table rate"');
  });
});

describe("an imported report whose estimated cost_rate is past 1e21", () => {
  it("still renders its page, the rate written in plain digits (toFixed's exponent form had no decimal point to trim)", () => {
    const doc = JSON.parse(JSON.stringify(sampleReport()));
    for (const result of doc.results) {
      if (result.metadata?.cost_source === "estimated") result.metadata.cost_rate = { input: 1e21, output: 2, source: "catalog" };
    }
    const html = Report.fromJSON(doc).toHtml({ theme: "light" });
    expect(html).toContain("× $1000000000000000000000.00/M + ");
  });
});
