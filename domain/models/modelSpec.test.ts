import { describe, expect, it } from "vitest";
import { ModelSpec, ModelSpecError } from "./index.js";

const opts = { defaultProvider: "openai" };
const parsed = (value: unknown, options: Parameters<typeof ModelSpec.parse>[1] = opts) => ModelSpec.parse(value, options).toJSON();

describe("ModelSpec.parse", () => {
  it("splits provider/model when the head is a known provider", () => {
    expect(parsed("anthropic/claude-sonnet-5")).toEqual({ label: "anthropic/claude-sonnet-5", provider: "anthropic", model: "claude-sonnet-5" });
    expect(parsed("ollama/qwen3:8b")).toEqual({ label: "ollama/qwen3:8b", provider: "ollama", model: "qwen3:8b" });
  });

  it("routes vendor/model to openrouter with the whole text as model", () => {
    expect(parsed("meta-llama/llama-4-scout")).toEqual({ label: "meta-llama/llama-4-scout", provider: "openrouter", model: "meta-llama/llama-4-scout" });
  });

  it.each([
    ["claude-sonnet-5", "anthropic"],
    ["Claude-3-haiku", "anthropic"],
    ["gpt-5-mini", "openai"],
    ["o3", "openai"],
    ["o4-mini", "openai"],
    ["chatgpt-4o-latest", "openai"],
    ["text-embedding-3-small", "openai"],
    ["qwen3:8b", "ollama"],
    ["mistral-large", "fallback"],
    ["omni", "fallback"],
  ])("infers %s -> %s", (name, provider) => {
    expect(parsed(name, { defaultProvider: "fallback" })).toEqual({ label: name, provider, model: name });
  });

  it("falls back to the default provider when no rule matches", () => {
    expect(parsed("mistral-large", { defaultProvider: "ollama" }).provider).toBe("ollama");
  });

  it("only infers providers that are offered", () => {
    const options = { defaultProvider: "openai", providers: ["openai", "anthropic"] };
    expect(parsed("qwen3:8b", options).provider).toBe("openai");
    expect(parsed("vendor/model", options)).toEqual({ label: "vendor/model", provider: "openai", model: "vendor/model" });
    expect(parsed("anthropic/claude-x", options)).toMatchObject({ provider: "anthropic", model: "claude-x" });
  });

  it("keeps the typed text, stripped, as label", () => {
    expect(parsed("  gpt-5  ").label).toBe("gpt-5");
  });

  it("rejects a blank name", () => {
    expect(() => ModelSpec.parse("  ", opts)).toThrowError(ModelSpecError);
    expect(() => ModelSpec.parse(null, opts)).toThrow("model name is blank");
  });

  it("compares equal specs equal through toJSON and equals", () => {
    const a = ModelSpec.parse("gpt-5", opts);
    const b = ModelSpec.parse("gpt-5", opts);
    expect(a.toJSON()).toEqual(b.toJSON());
    expect(a.equals(b)).toBe(true);
    expect(a.equals(ModelSpec.parse("openai/gpt-5", opts))).toBe(false);
    expect(ModelSpec.fromJSON(a.toJSON()).equals(a)).toBe(true);
  });
});

describe("ModelSpec.parseAll", () => {
  it("splits a comma list, drops blanks and collapses repeated labels", () => {
    const specs = ModelSpec.parseAll("claude-sonnet-5, ollama/qwen3:8b,, claude-sonnet-5", opts);
    expect(specs.map((spec) => spec.toJSON())).toEqual([
      { label: "claude-sonnet-5", provider: "anthropic", model: "claude-sonnet-5" },
      { label: "ollama/qwen3:8b", provider: "ollama", model: "qwen3:8b" },
    ]);
  });

  it("keeps a mapping naming provider and model as is, and parses one naming only a label or model", () => {
    const specs = ModelSpec.parseAll(
      [{ provider: "azure", model: "gpt-5", label: "azure-gpt5" }, { provider: "openai", model: "gpt-5" }, { model: "claude-opus-5" }, { label: "o3" }, {}],
      opts,
    );
    expect(specs.map((spec) => spec.toJSON())).toEqual([
      { label: "azure-gpt5", provider: "azure", model: "gpt-5" },
      { label: "gpt-5", provider: "openai", model: "gpt-5" },
      { label: "claude-opus-5", provider: "anthropic", model: "claude-opus-5" },
      { label: "o3", provider: "openai", model: "o3" },
    ]);
  });

  it("keeps two labels for one model apart (the fan-out refuses them later)", () => {
    expect(ModelSpec.parseAll(["gpt-5-mini", "openai/gpt-5-mini"], opts).map((spec) => spec.label)).toEqual(["gpt-5-mini", "openai/gpt-5-mini"]);
  });
});

describe("ModelSpec options", () => {
  it("are optional when the provider can be inferred, and a name that needs one says what to pass", () => {
    expect(ModelSpec.parse("gpt-5").toJSON()).toEqual({ label: "gpt-5", provider: "openai", model: "gpt-5" });
    expect(ModelSpec.parse("gpt-5", undefined).provider).toBe("openai");
    expect(ModelSpec.parseAll(["gpt-5-mini", "claude-sonnet-5"]).map((spec) => spec.provider)).toEqual(["openai", "anthropic"]);
    expect(() => ModelSpec.parse("mistral-large")).toThrow(new ModelSpecError('no provider for model "mistral-large": set defaultProvider'));
  });
});

describe("model names a reader cannot tell apart", () => {
  it("refuses a name holding a control, bidi or invisible character, by code point and place", () => {
    expect(() => ModelSpec.parse("\u30e2\u30c7\u30eb\u202e", opts)).toThrow(
      new ModelSpecError('model name "\u30e2\u30c7\u30eb\\u{202E}" must not contain U+202E RIGHT-TO-LEFT OVERRIDE (at character 4): control, bidi and invisible characters are refused in keys, labels and tool names'),
    );
    expect(() => ModelSpec.parseAll(["gpt-5-mini", "gpt\u200b-5"], opts)).toThrow("U+200B ZERO WIDTH SPACE (at character 4)");
    expect(() => ModelSpec.parseAll([{ provider: "openai", model: "gpt-5", label: "fi\u2028ve" }], opts)).toThrow("U+2028 LINE SEPARATOR");
  });

  it("refuses a name not in NFC, naming the composed form", () => {
    expect(() => ModelSpec.parse("mode\u0301le", opts)).toThrow('model name "mode\u0301le" is not in Unicode NFC (a character is written decomposed): write "mod\u00e9le" instead');
  });

  it("refuses two names of one list that read alike across scripts, naming where they differ", () => {
    expect(() => ModelSpec.parseAll("gpt-5-mini, g\u0440t-5-mini", opts)).toThrow(
      new ModelSpecError('models "gpt-5-mini" and "g\u0440t-5-mini" read alike (character 2 is U+0070 in one and U+0440 in the other): rename one'),
    );
  });

  it("rebuilds a recorded spec as it was stored", () => {
    expect(ModelSpec.fromJSON({ label: "g\u200bpt", provider: "openai", model: "g\u200bpt" }).label).toBe("g\u200bpt");
  });
});
