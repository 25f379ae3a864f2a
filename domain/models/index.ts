// Public surface of models: ModelSpec (parse, parseAll, provider inference, label).
//
//   ModelSpec.parse("claude-sonnet-5", { defaultProvider: "openai" }).toJSON()
//   // => { label: "claude-sonnet-5", provider: "anthropic", model: "claude-sonnet-5" }
//   ModelSpec.parseAll("gpt-5-mini, ollama/qwen3:8b, gpt-5-mini", { defaultProvider: "openai" })
//   // => two specs: openai gpt-5-mini, ollama qwen3:8b (a repeated label is kept once)
export * from "./modelSpec.js";
