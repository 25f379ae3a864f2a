// Scenario keys and model labels are the user's text, and the report keys objects by them. A key
// JavaScript gives a meaning to on every object (`__proto__`, `constructor`, `toString`) must
// still be an ordinary key: a run whose scenario was named `__proto__` rendered no report at all
// (its scenario costs set the object's prototype instead of an entry).
import { describe, expect, it } from "vitest";
import { ModelSpec } from "../models/index.js";
import { Runner } from "../runner/index.js";
import { Scenario } from "../scenarios/index.js";
import { Comparison } from "../stats/index.js";
import { Report } from "./report.js";
import { checkGfm } from "./gfmCheck.js";

const KEYS = ["__proto__", "constructor", "toString", "hasOwnProperty"];
const scenarios = KEYS.map((key) => new Scenario({ key, prompt: `Task ${key}: where is order 7?`, expectedTools: ["lookup_order"] }));
const models = ["__proto__", "constructor", "gpt-5-mini"].map((label) => ModelSpec.parse(label, { defaultProvider: "openai" }));

function replay(scenario: Scenario, spec: ModelSpec) {
  const passes = spec.label !== "__proto__" || scenario.key === "toString";
  return {
    answer: passes ? `Order 7 for ${scenario.key} ships today; here is the tracking link.` : "Sorry.",
    tool_calls: passes ? [{ name: "lookup_order" }] : [],
    duration_ms: 800,
    input_tokens: 100,
    output_tokens: 20,
    cost: spec.label === "constructor" ? null : 0.001,
    metadata: spec.label === "gpt-5-mini" ? { cost_source: "estimated" } : {},
  };
}

describe("scenario keys and model labels JavaScript objects give a meaning to", () => {
  it("are ordinary keys in every figure, every format and a rebuilt report", async () => {
    const report = await new Runner({ scenarios, models, replay }).run();
    const json = report.toJSON();
    for (const key of KEYS) {
      expect(Object.hasOwn(report.scenarioCosts, key), key).toBe(true);
      expect(report.scenarioCosts[key].models.__proto__?.cost ?? "missing").toBe(0.001);
      expect(report.scenarioMarkdown(key)).toContain(`Task ${key}`);
    }
    for (const label of ["__proto__", "constructor"]) {
      expect(Object.hasOwn(report.summaryByModel, label), label).toBe(true);
      expect(Object.hasOwn(report.comparison!.models, label), label).toBe(true);
    }
    expect(report.summaryByModel.__proto__.passed).toBe(1);
    expect(report.fixItems.reduce((sum, item) => sum + item.count, 0)).toBe(3);
    const markdown = report.toMarkdown();
    expect(checkGfm(markdown)).toEqual([]);
    expect(markdown).toContain("`__proto__`");
    const html = report.toHtml({ theme: "light" });
    expect(html).toContain('id="scenario-__proto__"');

    const rebuilt = Report.fromJSON(JSON.parse(JSON.stringify(json)));
    expect(JSON.stringify(rebuilt.toJSON())).toBe(JSON.stringify(json));
    expect(rebuilt.toMarkdown()).toBe(markdown);
    expect(rebuilt.toHtml({ theme: "light" })).toBe(html);
  });

  it("compare like any other model, and a recorded comparison reads back", () => {
    const results = scenarios.flatMap((scenario) => models.map((spec) => ({ scenario: { key: scenario.key }, label: spec.label, status: spec.label === "__proto__" ? "failed" : "passed" })));
    const comparison = new Comparison({ results: results as never, models: models.map((m) => m.label), resamples: 200 });
    expect(Object.keys(comparison.models)).toEqual(models.map((m) => m.label));
    expect(comparison.models.__proto__.pass_rate).toBe(0);
    const recorded = Comparison.fromJSON(JSON.parse(JSON.stringify(comparison.toJSON())));
    expect(JSON.stringify(recorded.toJSON())).toBe(JSON.stringify(comparison.toJSON()));
  });
});
