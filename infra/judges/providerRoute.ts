// Which model provider a judge call goes to (guide "Routing a pinned judge"). Providers are
// configured by their credentials in the environment; the run's judge model (the evaluation's
// `judgeModel`) is the pin:
// - no pin: the first configured provider in Anthropic, OpenAI, OpenRouter, Ollama order, on
//   that provider's default judge model;
// - a provider-qualified pin (`openai/my-deployment`, `ollama/llama3.2`,
//   `openrouter/anthropic/claude-haiku-4.5`) selects that provider and sends the rest;
// - a native name selects its native provider (`gpt-5-mini` OpenAI, `claude-haiku-4-5`
//   Anthropic, `name:tag` Ollama), a vendor id (`meta-llama/llama-3.3-70b-instruct`) OpenRouter;
// - any other bare name goes to the first configured provider.
// A pin whose provider is not configured never falls through to another one: the run that asks
// the judge fails, naming what to set. With no provider configured at all there is no judge, and
// scoring stays on rules.
import { ModelSpec } from "@verdict/domain";

export const JUDGE_PROVIDERS = ["anthropic", "openai", "openrouter", "ollama"] as const;
export type JudgeProvider = (typeof JUDGE_PROVIDERS)[number];

/** A configured provider: its key (Ollama needs none) and the endpoint to call. */
export interface ProviderEndpoint {
  apiKey: string | null;
  baseURL: string;
}

export type ProviderEndpoints = Partial<Record<JudgeProvider, ProviderEndpoint>>;

const NAMES: Record<JudgeProvider, string> = { anthropic: "Anthropic", openai: "OpenAI", openrouter: "OpenRouter", ollama: "Ollama" };
export const PROVIDER_SETTING: Record<JudgeProvider, string> = { anthropic: "ANTHROPIC_API_KEY", openai: "OPENAI_API_KEY", openrouter: "OPENROUTER_API_KEY", ollama: "OLLAMA_BASE_URL" };

/** The model an unpinned judge runs on, per provider. */
export const DEFAULT_JUDGE_MODELS: Record<JudgeProvider, string> = {
  anthropic: "claude-haiku-4-5",
  openai: "gpt-5-mini",
  openrouter: "openai/gpt-5-mini",
  ollama: "llama3.2",
};

const DEFAULT_BASE_URLS: Record<Exclude<JudgeProvider, "ollama">, string> = {
  anthropic: "https://api.anthropic.com/v1",
  openai: "https://api.openai.com/v1",
  openrouter: "https://openrouter.ai/api/v1",
};

/**
 * The providers the environment configures: `ANTHROPIC_API_KEY`, `OPENAI_API_KEY`,
 * `OPENROUTER_API_KEY` (each with an optional `*_BASE_URL`), and `OLLAMA_BASE_URL` (Ollama's
 * OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1).
 */
export function providerEndpointsFrom(env: Record<string, string | undefined>): ProviderEndpoints {
  const endpoints: ProviderEndpoints = {};
  const setting = (name: string): string | null => (env[name]?.trim() ? env[name]!.trim() : null);
  for (const provider of ["anthropic", "openai", "openrouter"] as const) {
    const apiKey = setting(PROVIDER_SETTING[provider]);
    const urlSetting = `${provider.toUpperCase()}_BASE_URL`;
    if (apiKey) endpoints[provider] = { apiKey, baseURL: checkedUrl(urlSetting, setting(urlSetting)) ?? DEFAULT_BASE_URLS[provider] };
  }
  const ollama = checkedUrl("OLLAMA_BASE_URL", setting("OLLAMA_BASE_URL"));
  if (ollama) endpoints.ollama = { apiKey: null, baseURL: ollama };
  return endpoints;
}

/**
 * An endpoint setting, refused (never shown: it may hold a secret) unless it is an http(s) URL
 * without credentials: fetch cannot send them, and keys go in the *_API_KEY settings, which are
 * the only secrets the judges keep out of what they pass on.
 */
function checkedUrl(name: string, value: string | null): string | null {
  if (value === null) return null;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new Error(`${name} must be an http(s) URL, e.g. ${name === "OLLAMA_BASE_URL" ? "http://127.0.0.1:11434/v1" : DEFAULT_BASE_URLS[name.split("_")[0].toLowerCase() as keyof typeof DEFAULT_BASE_URLS]} (value not shown)`);
  }
  if (url.username || url.password) {
    const key = name === "OLLAMA_BASE_URL" ? "" : ` (send the key as ${name.replace("_BASE_URL", "_API_KEY")}; value not shown)`;
    throw new Error(`${name} must not carry a user name or password${key || " (value not shown)"}`);
  }
  return value;
}

/** Where a judge call goes: the provider and the model id sent to it. */
export interface JudgeRoute {
  provider: JudgeProvider;
  model: string;
}

/** No route: why, and whether the run must fail (a pin that cannot be served) or score on rules (no provider at all). */
export interface NoJudgeRoute {
  reason: string;
  failsRun: boolean;
}

export function routeJudge(pin: string | null | undefined, endpoints: ProviderEndpoints): JudgeRoute | NoJudgeRoute {
  const configured = JUDGE_PROVIDERS.filter((provider) => endpoints[provider] !== undefined);
  if (configured.length === 0) {
    return { reason: `no model provider is configured for the judge (set ${JUDGE_PROVIDERS.map((p) => PROVIDER_SETTING[p]).join(", ")})`, failsRun: false };
  }
  const first = configured[0];
  if (pin === null || pin === undefined || pin.trim() === "") return { provider: first, model: DEFAULT_JUDGE_MODELS[first] };
  // `anthropic/` names a provider and no model: read as a bare name, it went to another provider.
  const named = /^([^/]+)\/\s*$/.exec(pin.trim());
  if (named && (JUDGE_PROVIDERS as readonly string[]).includes(named[1])) {
    return { reason: `the judge model "${pin.trim()}" names ${NAMES[named[1] as JudgeProvider]} but no model after it (e.g. ${named[1]}/${DEFAULT_JUDGE_MODELS[named[1] as JudgeProvider]})`, failsRun: true };
  }
  // A pin recorded before model names were checked (a control or invisible character in it)
  // fails the run saying why, rather than throwing out of the judge's route.
  let spec: ModelSpec;
  try {
    spec = ModelSpec.parse(pin, { defaultProvider: first, providers: JUDGE_PROVIDERS });
  } catch (error) {
    if (error instanceof ModelSpec.Error) return { reason: `the judge model cannot be used: ${error.message}`, failsRun: true };
    throw error;
  }
  const provider = spec.provider as JudgeProvider;
  if (endpoints[provider]) return { provider, model: spec.model };
  return {
    reason:
      `the judge model "${spec.label}" is served by ${NAMES[provider]}, which is not configured: set ${PROVIDER_SETTING[provider]} ` +
      `(configured: ${configured.map((p) => NAMES[p]).join(", ")}), or pin a configured provider, e.g. ${first}/<model>`,
    failsRun: true,
  };
}

export function isRoute(route: JudgeRoute | NoJudgeRoute): route is JudgeRoute {
  return "provider" in route;
}
