import { describe, expect, it } from "vitest";
import { PriceTable, PriceTableError } from "./index.js";
import { MAX_RATE } from "./priceTable.js";

const FILE = "prices.yaml";

function refusal(text: string): PriceTableError {
  try {
    PriceTable.parse(text, FILE);
  } catch (error) {
    if (error instanceof PriceTableError) return error;
    throw error;
  }
  throw new Error("the table was accepted");
}

describe("PriceTable.parse", () => {
  it("reads each model's input and output rates, USD per million tokens, from YAML or JSON", () => {
    const yaml = PriceTable.parse("models:\n  gpt-4o: { input: 2.5, output: 10 }\n  anthropic/claude-sonnet-4: { input: 3, output: 15 }\n  free-model: { input: 0, output: 0 }\n", FILE);
    expect(yaml.size).toBe(3);
    expect(yaml.rateFor({ label: "gpt-4o", model: "gpt-4o" })).toEqual({ input: 2.5, output: 10, key: "gpt-4o", matched: "label" });
    expect(yaml.rateFor({ label: "free-model", model: "free-model" })).toEqual({ input: 0, output: 0, key: "free-model", matched: "label" });
    const json = PriceTable.parse('{"models": {"gpt-4o": {"input": 2.5, "output": 10}}}', "prices.json");
    expect(json.rateFor({ label: "gpt-4o", model: "gpt-4o" })).toEqual({ input: 2.5, output: 10, key: "gpt-4o", matched: "label" });
  });

  it("matches a result's label first, then its model id, exactly and case-sensitively, saying which key matched and how", () => {
    const table = PriceTable.parse(
      "models:\n  anthropic/claude-sonnet-4: { input: 3, output: 15 }\n  claude-sonnet-4: { input: 1, output: 1 }\n  gpt-4o: { input: 2.5, output: 10 }\n",
      FILE,
    );
    // The label wins over the model id when both are named.
    expect(table.rateFor({ label: "anthropic/claude-sonnet-4", model: "claude-sonnet-4" })).toEqual({ input: 3, output: 15, key: "anthropic/claude-sonnet-4", matched: "label" });
    // A label the table does not name falls back to the model id.
    expect(table.rateFor({ label: "openai/gpt-4o", model: "gpt-4o" })).toEqual({ input: 2.5, output: 10, key: "gpt-4o", matched: "model" });
    // No patterns, no case folding, no prefix matching.
    expect(table.rateFor({ label: "GPT-4o", model: "GPT-4o" })).toBeNull();
    expect(table.rateFor({ label: "gpt-4o-mini", model: "gpt-4o-mini" })).toBeNull();
    expect(table.rateFor({ label: "gpt-4", model: "gpt-4" })).toBeNull();
  });

  it("reads `yes` and octal-looking text as YAML 1.2 does (the core dialect): a model named `no` stays text", () => {
    const table = PriceTable.parse("models:\n  no: { input: 1, output: 2 }\n", FILE);
    expect(table.rateFor({ label: "no", model: "no" })).toMatchObject({ input: 1, output: 2 });
  });

  it.each([
    ["a negative rate", "models:\n  gpt-4o: { input: -1, output: 10 }\n", "models.gpt-4o.input", "must not be negative (USD per million tokens), got -1"],
    ["an infinite rate", "models:\n  gpt-4o: { input: 2.5, output: .inf }\n", "models.gpt-4o.output", "must be a finite number (USD per million tokens), got Infinity"],
    ["a NaN rate", "models:\n  gpt-4o: { input: .nan, output: 1 }\n", "models.gpt-4o.input", "must be a finite number (USD per million tokens), got NaN"],
    ["a rate over 1,000,000 USD per million tokens", "models:\n  gpt-4o: { input: 1e12, output: 10 }\n", "models.gpt-4o.input", "must be at most 1,000,000 (USD per million tokens), got 1000000000000"],
    ["an output rate just over the bound", "models:\n  gpt-4o: { input: 1, output: 1000000.5 }\n", "models.gpt-4o.output", "must be at most 1,000,000 (USD per million tokens), got 1000000.5"],
    ["a hexadecimal rate (YAML 1.2 reads 0x10 as 16)", "models:\n  gpt-4o: { input: 0x10, output: 10 }\n", "models.gpt-4o.input", "must be written as a decimal number such as 2.5 (USD per million tokens), got 0x10 (read as 16)"],
    ["an octal rate (YAML 1.2 reads 0o17 as 15)", "models:\n  gpt-4o: { input: 1, output: 0o17 }\n", "models.gpt-4o.output", "must be written as a decimal number such as 2.5 (USD per million tokens), got 0o17 (read as 15)"],
    ["a rate with a leading zero (YAML 1.1 readers read 0012 as 10)", "models:\n  gpt-4o: { input: 0012, output: 1 }\n", "models.gpt-4o.input", "must be written as a decimal number such as 2.5 (USD per million tokens), got 0012 (read as 12)"],
    ["a hexadecimal rate repeated by an alias, at its anchor", "models:\n  a: { input: &r 0x10, output: 1 }\n  b: { input: *r, output: 1 }\n", "models.a.input", "got 0x10 (read as 16)"],
    ["a hexadecimal rate in JSON", '{"models": {"gpt-4o": {"input": 2.5, "output": 0xA}}}', "models.gpt-4o.output", "got 0xA (read as 10)"],
    ["a binary rate (text to YAML 1.2)", "models:\n  gpt-4o: { input: 0b1, output: 1 }\n", "models.gpt-4o.input", 'must be a number (USD per million tokens), got string "0b1"'],
    ["a rate with digit separators (text to YAML 1.2)", "models:\n  gpt-4o: { input: 1_000, output: 1 }\n", "models.gpt-4o.input", 'must be a number (USD per million tokens), got string "1_000"'],
    ["a negative infinite rate", "models:\n  gpt-4o: { input: -.inf, output: 1 }\n", "models.gpt-4o.input", "must be a finite number (USD per million tokens), got -Infinity"],
    ["a rate given as text", 'models:\n  gpt-4o: { input: "2.5", output: 10 }\n', "models.gpt-4o.input", 'must be a number (USD per million tokens), got string "2.5"'],
    ["a missing input", "models:\n  gpt-4o: { output: 10 }\n", "models.gpt-4o.input", "missing (USD per million input tokens)"],
    ["a missing output", "models:\n  gpt-4o: { input: 2.5 }\n", "models.gpt-4o.output", "missing (USD per million output tokens)"],
    ["an unknown rate key", "models:\n  gpt-4o: { input: 2.5, output: 10, cached: 1 }\n", "models.gpt-4o.cached", "unknown key (a model takes input and output, USD per million tokens)"],
    ["a model that is not a mapping", "models:\n  gpt-4o: 2.5\n", "models.gpt-4o", "must be a mapping { input, output }, got number 2.5"],
    ["a dotted model name, quoted in the path", "models:\n  gpt-4.1: { input: 2 }\n", 'models."gpt-4.1".output', "missing (USD per million output tokens)"],
    ["an unknown top-level key", "models: { gpt-4o: { input: 1, output: 1 } }\ncurrency: EUR\n", "currency", "unknown key (expected models:"],
    ["no models key", "prices: {}\n", "prices", "unknown key"],
    ["models missing", "{}\n", "models", "missing (expected models:"],
    ["models as a list", "models:\n  - gpt-4o\n", "models", "must be a mapping of model to { input, output }, got a list"],
    ["models empty", "models: {}\n", "models", "names no model"],
    ["a repeated model", "models:\n  gpt-4o: { input: 1, output: 1 }\n  gpt-4o: { input: 2, output: 2 }\n", "line 3", "not valid YAML: repeated key in one mapping"],
    ["not YAML", "models: { gpt-4o: [\n", "line 2", "not valid YAML: "],
    ["an unknown tag", "models: !!js/function 'x'\n", "line 1", "not valid YAML: "],
  ])("refuses %s, naming the file, the path and the rule", (_name, text, where, rule) => {
    const error = refusal(text);
    expect(error.file).toBe(FILE);
    expect(error.where).toBe(where);
    expect(error.rule).toContain(rule);
    expect(error.message).toBe(`${FILE}: ${where}: ${error.rule}`);
    expect(error.code).toBe("validation");
  });

  it("takes a rate written as a decimal number: a fraction, an exponent, a sign, a bare zero", () => {
    const table = PriceTable.parse("models:\n  a: { input: 0.15, output: 1e1 }\n  b: { input: +2, output: .5 }\n  c: { input: 0, output: 2.50 }\n  d: { input: 3., output: 1.5E-1 }\n", FILE);
    expect(table.rateFor({ label: "a", model: "a" })).toMatchObject({ input: 0.15, output: 10 });
    expect(table.rateFor({ label: "b", model: "b" })).toMatchObject({ input: 2, output: 0.5 });
    expect(table.rateFor({ label: "c", model: "c" })).toMatchObject({ input: 0, output: 2.5 });
    expect(table.rateFor({ label: "d", model: "d" })).toMatchObject({ input: 3, output: 0.15 });
  });

  it("takes a rate up to MAX_RATE, 1,000,000 USD per million tokens", () => {
    expect(MAX_RATE).toBe(1_000_000);
    const table = PriceTable.parse("models:\n  dear: { input: 1000000, output: 600 }\n", FILE);
    expect(table.rateFor({ label: "dear", model: "dear" })).toMatchObject({ input: 1_000_000, output: 600 });
  });

  it("refuses a document that is not a mapping, naming the file", () => {
    for (const [text, got] of [["", "nothing"], ["- a\n", "a list"], ["prices\n", 'string "prices"']]) {
      const error = refusal(text);
      expect(error.where).toBeNull();
      expect(error.message).toBe(`${FILE}: must be a mapping with models:, got ${got} (expected models: { MODEL: { input: USD per million input tokens, output: USD per million output tokens } })`);
    }
  });
});
