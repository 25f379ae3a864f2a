// An option a constructor or reader does not read was ignored and the default used (only the
// Runner refused one): each now refuses it naming the option and, when a typo or the Ruby
// spelling is likely, the one it meant.
import { describe, expect, it } from "vitest";
import { Correlation, Judge, ModelSpec, Report, ScenarioParser } from "./index.js";

const complete = async () => "ok";

describe("unknown options", () => {
  it("are refused by new Report and its toHtml, naming the option and the one meant", () => {
    expect(() => new Report({ results: [], models: [], treshold: 0.5 } as never)).toThrow(
      /^Report: unknown option treshold \(did you mean threshold\?\); it reads results, models, /,
    );
    const report = new Report({ results: [], models: [] });
    expect(() => report.toHtml({ them: "dark" } as never)).toThrow("Report: toHtml: unknown option them (did you mean theme?); it reads theme");
    expect(() => report.toHtml("dark" as never)).toThrow("Report: toHtml: options must be an object ({ theme }), got a string");
    expect(report.toHtml({ theme: "dark" })).toContain("<html");
  });

  it("are refused by new Judge, where timeout (for timeoutMs) ran on the default limit", () => {
    expect(() => new Judge({ label: "j", complete, timeout: 5 } as never)).toThrow(
      "Judge: unknown option timeout (did you mean timeoutMs?); it reads label, complete, timeoutMs",
    );
  });

  it("are refused by new Correlation, the guide's snake_case spellings pointed to their camelCase", () => {
    expect(() => new Correlation({ agentName: "A", judge_name: "J" } as never)).toThrow(/^Correlation: unknown option judge_name \(did you mean judgeName\?\)/);
    expect(() => new Correlation({ agentName: "A", trace_keys: [] } as never)).toThrow(/^Correlation: unknown option trace_keys \(did you mean traceKeys\?\)/);
  });

  it("are refused by ScenarioParser and ModelSpec.parse", () => {
    expect(() => ScenarioParser.parse("Hi", { key_prefix: "x" } as never)).toThrow(/^ScenarioParser: unknown option key_prefix \(did you mean keyPrefix\?\)/);
    expect(() => ScenarioParser.scenarios("Hi", { key_prefix: "x" } as never)).toThrow(/unknown option key_prefix/);
    expect(ScenarioParser.scenarios("Hi", { keyPrefix: "x" })[0].key).toMatch(/^x/);
    expect(() => ModelSpec.parse("gpt-5", { default_provider: "openai" } as never)).toThrow(/^ModelSpec\.parse: unknown option default_provider \(did you mean defaultProvider\?\)/);
  });
});

describe("ModelSpec.parse", () => {
  it("refuses an object, where it read \"[object Object]\" and named no provider for it", () => {
    expect(() => ModelSpec.parse({ provider: "openai", model: "gpt-5" })).toThrow(
      "ModelSpec.parse takes a model name (text), got an object; a { provider, model } is read by ModelSpec.parseAll or new ModelSpec({ label, provider, model })",
    );
  });
});
