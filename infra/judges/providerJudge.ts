// Judges on model providers, through the AI SDK (DESIGN.md "Agent runtimes"): each run's judge
// model is routed by providerRoute.ts to Anthropic (its Messages API), or to OpenAI, OpenRouter or
// Ollama (their chat completions API), with the credentials the environment holds.
//
// Credentials never leave this file: a provider's error is passed on (the core's Judge records
// it as the reason a call was skipped, in the run's events) with the key replaced by
// `[redacted]`, and so is an answer that would echo it. Endpoint URLs carry no credentials
// (providerRoute.ts refuses them).
import type { LanguageModel } from "ai";
import type { JudgeReply, JudgeRequest } from "@verdict/domain";
import { linkSignals } from "../abort/linkedSignal.js";
import { redactText, secretList } from "../agents/redact.js";
import { isRoute, routeJudge, type JudgeRoute, type NoJudgeRoute, type ProviderEndpoint, type ProviderEndpoints } from "./providerRoute.js";
import type { JudgeBackend } from "./scriptedJudge.js";
import { aiSdk, languageModel, providerReason } from "./languageModel.js";

export interface ProviderJudgeOptions {
  /** Retries of a call the provider refused as retryable (429, 5xx), with the AI SDK's backoff. Default 2. */
  maxRetries?: number;
  /**
   * A call (its retries included) still unanswered after this long is stopped. Default 120 s, so
   * a provider that never answers cannot hang a run or `verdict run`; the Judge's own
   * `timeoutMs` (VERDICT_JUDGE_TIMEOUT_MS) stops it sooner through the request's signal.
   */
  timeoutMs?: number;
}

const DEFAULT_PROVIDER_TIMEOUT_MS = 120_000;
/** The longest model id recorded with a call's usage (a provider's echo is not a model name). */
const MODEL_ID_LIMIT = 200;

const REASON_LIMIT = 500;

/** The providers behind every run's judge: `forModel` routes a run's pin to one of them. */
export class ProviderJudges implements JudgeBackend {
  readonly name = "providers";
  // Private fields: a backend logged or serialized whole shows no key.
  readonly #endpoints: ProviderEndpoints;
  readonly #options: ProviderJudgeOptions;

  constructor(endpoints: ProviderEndpoints, options: ProviderJudgeOptions = {}) {
    this.#endpoints = endpoints;
    this.#options = options;
  }

  /** The judge for a run's judge model (null: none pinned), or why there is none. */
  forModel(pin: string | null): JudgeBackend | NoJudgeRoute {
    const route = routeJudge(pin, this.#endpoints);
    if (!isRoute(route)) return route;
    const label = pin?.trim() ? pin.trim() : route.provider;
    return new ProviderJudge(label, route, this.#endpoints[route.provider]!, this.#options);
  }

  /** A call with no run's pin: the unpinned route. */
  complete(request: JudgeRequest): Promise<JudgeReply> {
    const judge = this.forModel(null);
    if ("reason" in judge) return Promise.reject(new Error(judge.reason));
    return judge.complete(request);
  }
}

/** One routed judge: a provider and the model id it is sent. */
export class ProviderJudge implements JudgeBackend {
  readonly #endpoint: ProviderEndpoint;
  readonly #secrets: string[];
  readonly #maxRetries: number;
  readonly #timeoutMs: number;
  #model: Promise<LanguageModel> | null = null;

  constructor(
    readonly name: string,
    readonly route: JudgeRoute,
    endpoint: ProviderEndpoint,
    options: ProviderJudgeOptions = {},
  ) {
    this.#endpoint = endpoint;
    this.#secrets = secretList([endpoint.apiKey]);
    this.#maxRetries = options.maxRetries ?? 2;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  }

  async complete(request: JudgeRequest): Promise<JudgeReply> {
    const { generateText } = await aiSdk();
    let result: Awaited<ReturnType<typeof generateText>>;
    try {
      const model = await (this.#model ??= languageModel(this.route, this.#endpoint));
      // Not AbortSignal.any/timeout (linkedSignal.ts): a long-lived request signal kept an entry
      // per call, and a collected timeout signal never fired.
      const call = linkSignals([request.signal], this.#timeoutMs);
      try {
        result = await generateText({ model, system: request.instructions, prompt: request.prompt, maxRetries: this.#maxRetries, abortSignal: call.signal });
      } finally {
        call.dispose();
      }
    } catch (error) {
      throw new Error(this.#scrub(`${this.route.provider} judge call failed: ${providerReason(error)}`).slice(0, REASON_LIMIT));
    }
    // The provider's own name for the model, as it says it: redacted and bounded like its answer.
    const modelId = this.#scrub(result.response?.modelId || this.route.model).slice(0, MODEL_ID_LIMIT);
    const usage: Record<string, unknown> = { model: modelId };
    if (result.usage.inputTokens !== undefined) usage.input_tokens = result.usage.inputTokens;
    if (result.usage.outputTokens !== undefined) usage.output_tokens = result.usage.outputTokens;
    return { text: this.#scrub(result.text), usage };
  }

  #scrub(text: string): string {
    return redactText(text, this.#secrets);
  }
}
