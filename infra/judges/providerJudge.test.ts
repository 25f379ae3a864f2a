// The model-provider judges, through the real AI SDK clients against a local server that speaks
// OpenAI's chat completions and Anthropic's Messages API (infra/testing): the routing of a pin,
// what each provider is sent, the usage recorded, and no key in anything a judge passes on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Judge, Scenario } from "@verdict/domain";
import { startFakeModelProvider, type FakeModelProvider, type ProviderAnswer, type ProviderRequest } from "../testing/index.js";
import { loadJudge, providerJudges } from "./judgeSpec.js";
import { ProviderJudge, ProviderJudges } from "./providerJudge.js";
import { DEFAULT_JUDGE_MODELS, providerEndpointsFrom, routeJudge, type ProviderEndpoints } from "./providerRoute.js";

const KEY = "sk-test-SECRETKEY-0123456789";

describe("routeJudge (guide: Routing a pinned judge)", () => {
  const all: ProviderEndpoints = providerEndpointsFrom({
    ANTHROPIC_API_KEY: "a",
    OPENAI_API_KEY: "o",
    OPENROUTER_API_KEY: "r",
    OLLAMA_BASE_URL: "http://127.0.0.1:11434/v1",
  });
  const only = (env: Record<string, string>) => providerEndpointsFrom(env);

  it("sends an unpinned judge to the first configured of Anthropic, OpenAI, OpenRouter, Ollama, on its default model", () => {
    expect(routeJudge(null, all)).toEqual({ provider: "anthropic", model: DEFAULT_JUDGE_MODELS.anthropic });
    expect(routeJudge("  ", only({ OPENROUTER_API_KEY: "r", OPENAI_API_KEY: "o" }))).toEqual({ provider: "openai", model: "gpt-5-mini" });
    expect(routeJudge(null, only({ OLLAMA_BASE_URL: "http://h/v1" }))).toEqual({ provider: "ollama", model: "llama3.2" });
  });

  it("sends a native name to its own provider whatever else is configured, and a provider-qualified pin to the provider it names", () => {
    expect(routeJudge("gpt-5-mini", all)).toEqual({ provider: "openai", model: "gpt-5-mini" });
    expect(routeJudge("claude-haiku-4-5", all)).toEqual({ provider: "anthropic", model: "claude-haiku-4-5" });
    expect(routeJudge("openai/my-deployment", all)).toEqual({ provider: "openai", model: "my-deployment" });
    expect(routeJudge("ollama/llama3.2", all)).toEqual({ provider: "ollama", model: "llama3.2" });
    expect(routeJudge("llama3.2:8b", all)).toEqual({ provider: "ollama", model: "llama3.2:8b" });
    expect(routeJudge("openrouter/anthropic/claude-haiku-4.5", all)).toEqual({ provider: "openrouter", model: "anthropic/claude-haiku-4.5" });
    expect(routeJudge("meta-llama/llama-3.3-70b-instruct", all)).toEqual({ provider: "openrouter", model: "meta-llama/llama-3.3-70b-instruct" });
    expect(routeJudge("anthropic/claude-haiku-4-5", only({ OPENROUTER_API_KEY: "r", ANTHROPIC_API_KEY: "a" }))).toEqual({ provider: "anthropic", model: "claude-haiku-4-5" });
  });

  it("keeps an unrecognized bare name on the first configured provider", () => {
    expect(routeJudge("house-judge-v2", only({ OPENAI_API_KEY: "o", OPENROUTER_API_KEY: "r" }))).toEqual({ provider: "openai", model: "house-judge-v2" });
  });

  it("never sends a pin to another provider: the run fails, naming what to set", () => {
    const route = routeJudge("anthropic/claude-haiku-4-5", only({ OPENROUTER_API_KEY: "r" }));
    expect(route).toEqual({
      failsRun: true,
      reason: 'the judge model "anthropic/claude-haiku-4-5" is served by Anthropic, which is not configured: set ANTHROPIC_API_KEY (configured: OpenRouter), or pin a configured provider, e.g. openrouter/<model>',
    });
    expect(routeJudge("gpt-5-mini", only({ ANTHROPIC_API_KEY: "a" }))).toMatchObject({ failsRun: true, reason: expect.stringContaining("set OPENAI_API_KEY") });
  });

  it("a provider named with no model after it is refused, not sent to another provider as a bare name", () => {
    expect(routeJudge("anthropic/", only({ OPENAI_API_KEY: "o" }))).toEqual({ failsRun: true, reason: 'the judge model "anthropic/" names Anthropic but no model after it (e.g. anthropic/claude-haiku-4-5)' });
    expect(routeJudge("openai/ ", only({ OPENAI_API_KEY: "o" }))).toMatchObject({ failsRun: true });
  });

  it("with no provider configured there is no judge, and scoring stays on rules", () => {
    expect(routeJudge("gpt-5-mini", {})).toMatchObject({ failsRun: false, reason: expect.stringContaining("no model provider is configured") });
  });

  it("reads keys and endpoints from the environment, ignoring blank settings", () => {
    expect(providerEndpointsFrom({ OPENAI_API_KEY: " o ", OPENAI_BASE_URL: "http://gw/v1", ANTHROPIC_API_KEY: "  " })).toEqual({ openai: { apiKey: "o", baseURL: "http://gw/v1" } });
    expect(providerEndpointsFrom({ OPENROUTER_API_KEY: "r" })).toEqual({ openrouter: { apiKey: "r", baseURL: "https://openrouter.ai/api/v1" } });
  });
});

describe("ProviderJudge through the AI SDK against a local provider", () => {
  let provider: FakeModelProvider;
  let answer: (request: ProviderRequest) => ProviderAnswer | Promise<ProviderAnswer> = () => '{"score": 0.8}';

  beforeAll(async () => {
    provider = await startFakeModelProvider({ apiKey: KEY, answer: (request) => answer(request) });
  });
  afterAll(async () => provider.close());

  const judges = (env: Record<string, string>) => new ProviderJudges(providerEndpointsFrom(env), { maxRetries: 0 });
  const routed = (pin: string | null, env: Record<string, string>) => {
    const judge = judges(env).forModel(pin);
    if (!(judge instanceof ProviderJudge)) throw new Error(`no route: ${JSON.stringify(judge)}`);
    return judge;
  };
  const task = { scenario: new Scenario({ key: "refund", prompt: "Refund order 4821" }), answer: "Refunded order 4821." };

  it("grades through OpenAI's chat completions: instructions as the system message, the key as a bearer token, tokens and model kept", async () => {
    answer = () => '{"score": 0.8, "reason": "did it"}';
    const backend = routed("gpt-5-mini", { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: provider.baseURL });
    const judge = new Judge({ label: backend.name, complete: (request) => backend.complete(request) });
    const outcome = await judge.scoreTask(task);
    expect(outcome.value).toBe(0.8);
    const sent = provider.requests.at(-1)!;
    expect(sent).toMatchObject({ api: "chat", model: "gpt-5-mini" });
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.system).toBe(outcome.exchange!.instructions);
    expect(sent.prompt).toBe(outcome.exchange!.prompt);
    expect(sent.prompt).toContain("Refund order 4821");
    expect(outcome.exchange).toMatchObject({ label: "gpt-5-mini", skipped: false, raw: '{"score": 0.8, "reason": "did it"}' });
    expect(outcome.exchange!.usage).toEqual({ model: "gpt-5-mini-2026-01-01", input_tokens: expect.any(Number), output_tokens: 9 });
  });

  it("grades through Anthropic's Messages API with its key header", async () => {
    answer = () => '{"score": 0.3}';
    const backend = routed("claude-haiku-4-5", { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: provider.baseURL, OPENAI_API_KEY: "unused" });
    const reply = await backend.complete({ kind: "score", instructions: "Grade it.", prompt: "The answer: yes" });
    const sent = provider.requests.at(-1)!;
    expect(sent).toMatchObject({ api: "messages", model: "claude-haiku-4-5", system: "Grade it.", prompt: "The answer: yes" });
    expect(sent.headers["x-api-key"]).toBe(KEY);
    expect(reply).toEqual({ text: '{"score": 0.3}', usage: { model: "claude-haiku-4-5-20260101", input_tokens: 6, output_tokens: 4 } });
  });

  it("sends OpenRouter and Ollama routes the model id the pin names, through their chat completions", async () => {
    answer = () => "ok";
    await routed("openrouter/anthropic/claude-haiku-4.5", { OPENROUTER_API_KEY: KEY, OPENROUTER_BASE_URL: provider.baseURL }).complete({ kind: "score", instructions: "i", prompt: "p" });
    expect(provider.requests.at(-1)).toMatchObject({ api: "chat", model: "anthropic/claude-haiku-4.5" });
    expect(provider.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("a provider's refusal is a skipped call whose reason has the provider's words and never the key", async () => {
    answer = () => '{"score": 1}';
    const backend = routed("gpt-5-mini", { OPENAI_API_KEY: `${KEY}-wrong`, OPENAI_BASE_URL: provider.baseURL });
    const judge = new Judge({ label: backend.name, complete: (request) => backend.complete(request) });
    const outcome = await judge.scoreTask(task);
    expect(outcome.value).toBeNull();
    expect(outcome.exchange).toMatchObject({ skipped: true, raw: null });
    const recorded = JSON.stringify(outcome.exchange);
    expect(recorded).toContain("HTTP 401");
    expect(recorded).toContain("Incorrect API key provided: [redacted]");
    expect(recorded).not.toContain("SECRETKEY");
  });

  it("an answer echoing the key is passed on redacted", async () => {
    answer = (request) => `{"score": 0.5, "note": "your key is ${request.headers.authorization}"}`;
    const reply = await routed("gpt-5-mini", { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: provider.baseURL }).complete({ kind: "score", instructions: "i", prompt: "p" });
    expect(JSON.stringify(reply)).not.toContain("SECRETKEY");
    expect(JSON.stringify(reply)).toContain("your key is Bearer [redacted]");
  });

  it("a provider's server error is passed on with its status and words", async () => {
    answer = () => ({ status: 500, body: { error: { message: "upstream overloaded" } } });
    const failed = await routed("gpt-5-mini", { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: provider.baseURL })
      .complete({ kind: "score", instructions: "i", prompt: "p" })
      .then(() => "", (error: Error) => error.message);
    expect(failed).toBe("openai judge call failed: HTTP 500: upstream overloaded");
  });

  it("a call the Judge stops waiting for (VERDICT_JUDGE_TIMEOUT_MS) is cancelled at the provider, not left running and retried", async () => {
    answer = () => new Promise((resolve) => setTimeout(() => resolve('{"score": 1}'), 1500));
    const backend = routed("gpt-5-mini", { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: provider.baseURL });
    const judge = new Judge({ label: backend.name, complete: (request) => backend.complete(request), timeoutMs: 200 });
    const before = provider.requests.length;
    const outcome = await judge.scoreTask(task);
    expect(outcome.exchange).toMatchObject({ skipped: true, unusable_reason: "the judge call failed: JudgeTimeout: no answer within 200 ms" });
    await expect.poll(() => provider.abandoned.length, { timeout: 1000 }).toBeGreaterThan(0);
    expect(provider.requests.length - before).toBe(1);
    // Its own bound, for a caller with no timeout of its own (verdict run): the call is stopped.
    const bounded = new ProviderJudges(providerEndpointsFrom({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: provider.baseURL }), { maxRetries: 0, timeoutMs: 200 }).forModel("gpt-5-mini") as ProviderJudge;
    const message = await bounded.complete({ kind: "score", instructions: "i", prompt: "p" }).then(() => "", (error: Error) => error.message);
    expect(message).toMatch(/^openai judge call failed: /);
  });

  it("the provider's model id is recorded redacted and bounded (a provider may echo anything there)", async () => {
    answer = () => '{"score": 0.5}';
    provider.modelId = `echo:${KEY}:${"m".repeat(5000)}`;
    try {
      const reply = await routed("gpt-5-mini", { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: provider.baseURL }).complete({ kind: "score", instructions: "i", prompt: "p" });
      const model = String((reply as { usage?: Record<string, unknown> }).usage?.model);
      expect(model.startsWith("echo:[redacted]:mmm")).toBe(true);
      expect(model).toHaveLength(200);
    } finally {
      provider.modelId = null;
    }
  });

  it("a provider that cannot be reached is a skipped call saying so", async () => {
    const backend = routed("gpt-5-mini", { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    const message = await backend.complete({ kind: "score", instructions: "i", prompt: "p" }).then(() => "", (error: Error) => error.message);
    expect(message).toMatch(/^openai judge call failed: /);
    expect(message).not.toContain(KEY);
  });
});

describe('VERDICT_JUDGE "providers"', () => {
  it("needs a configured provider, and says which settings configure one", async () => {
    await expect(loadJudge("VERDICT_JUDGE", { kind: "providers", model: null }, {})).rejects.toThrow('VERDICT_JUDGE: "providers" judges need a model provider: no model provider is configured for the judge (set ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY, OLLAMA_BASE_URL)');
    const judges = await loadJudge("--judge", { kind: "providers", model: null }, { OPENAI_API_KEY: KEY });
    expect(judges).toBeInstanceOf(ProviderJudges);
    // A backend may be logged or serialized whole: the key is not one of its properties.
    expect(JSON.stringify(judges)).not.toContain("SECRETKEY");
    expect(JSON.stringify((judges as ProviderJudges).forModel("gpt-5-mini"))).not.toContain("SECRETKEY");
  });

  it("refuses an endpoint URL that carries a user name or password, without showing it", async () => {
    const message = (() => {
      try {
        return providerJudges({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: "https://judge:GATEWAYPASS99@gw.example/v1" }) && "";
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toBe("OPENAI_BASE_URL must not carry a user name or password (send the key as OPENAI_API_KEY; value not shown)");
    expect(() => providerJudges({ OLLAMA_BASE_URL: "not a url" })).toThrow("OLLAMA_BASE_URL must be an http(s) URL, e.g. http://127.0.0.1:11434/v1 (value not shown)");
  });
});
