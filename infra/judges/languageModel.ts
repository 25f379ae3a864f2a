// A provider's model through the AI SDK, for the judges (providerJudge.ts) and the chat agent
// (infra/agents/chatAgent.ts): Anthropic on its Messages API; OpenAI, OpenRouter and Ollama on
// their chat completions API, with the endpoint and key the environment configures
// (providerRoute.ts).
//
// The AI SDK is loaded on a first call, not with this module: its packages add ~28 MB of
// resident memory and ~150 ms to every process that merely could call a provider.
import type { LanguageModel } from "ai";
import type { JudgeProvider, ProviderEndpoint } from "./providerRoute.js";

type Sdk = {
  generateText: typeof import("ai").generateText;
  tool: typeof import("ai").tool;
  jsonSchema: typeof import("ai").jsonSchema;
  stepCountIs: typeof import("ai").stepCountIs;
  createOpenAI: typeof import("@ai-sdk/openai").createOpenAI;
  createAnthropic: typeof import("@ai-sdk/anthropic").createAnthropic;
};

let loadedSdk: Promise<Sdk> | null = null;

export function aiSdk(): Promise<Sdk> {
  loadedSdk ??= Promise.all([import("ai"), import("@ai-sdk/openai"), import("@ai-sdk/anthropic")]).then(([ai, openai, anthropic]) => ({
    generateText: ai.generateText,
    tool: ai.tool,
    jsonSchema: ai.jsonSchema,
    stepCountIs: ai.stepCountIs,
    createOpenAI: openai.createOpenAI,
    createAnthropic: anthropic.createAnthropic,
  }));
  return loadedSdk;
}

/** The model `route.model` on `route.provider`, at `endpoint`. */
export async function languageModel(route: { provider: JudgeProvider; model: string }, endpoint: ProviderEndpoint): Promise<LanguageModel> {
  const { createAnthropic, createOpenAI } = await aiSdk();
  if (route.provider === "anthropic") return createAnthropic({ apiKey: endpoint.apiKey ?? undefined, baseURL: endpoint.baseURL })(route.model);
  // OpenAI, OpenRouter and Ollama all speak chat completions; Ollama takes no key.
  return createOpenAI({ apiKey: endpoint.apiKey ?? "ollama", baseURL: endpoint.baseURL, name: route.provider }).chat(route.model);
}

/** The provider's own words: its status and message, not the SDK's retry wrapper. */
export function providerReason(error: unknown): string {
  const last = (error as { lastError?: unknown }).lastError ?? error;
  const status = (last as { statusCode?: unknown }).statusCode;
  const message = last instanceof Error ? last.message : String(last);
  return typeof status === "number" ? `HTTP ${status}: ${message}` : message;
}
