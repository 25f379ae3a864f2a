// The platform drives the model itself (DESIGN.md "Agent runtimes", `chat`): `chat:<agent file>`
// (--agent, VERDICT_AGENT) names a YAML file that describes the agent — its instructions, its
// tools with their input schemas, and what each tool answers (fixtures) — and each replay asks
// the pair's model, through the AI SDK, with those instructions and tools, running tool calls
// against the fixtures until the model answers or `max_steps` is spent. So a team can compare
// candidate models on its scenarios before it has an agent service to call.
//
//   instructions: You are the support agent of an online shop. Look orders up before answering.
//   max_steps: 5                        # model calls per replay (1-25), default 5
//   tools:
//     - name: lookup_order
//       description: Looks an order up by its number
//       parameters: { type: object, properties: { number: { type: string } }, required: [number] }
//       results:                        # the first whose `when` the call's arguments hold wins
//         - when: { number: "4821" }
//           result: { status: shipped, carrier: DHL }
//         - when: { number: "0" }
//           error: no such order        # the call fails with this error
//       result: { status: unknown }     # any other call (or `error:`); neither: the call fails, naming its arguments
//
// The model of each pair is reached as a judge's is (providerRoute.ts): its provider
// (`openai`, `anthropic`, `openrouter`, `ollama`) configured by its key in the environment
// (OPENAI_API_KEY, …, and the optional *_BASE_URL). A provider that is not configured, or not
// one of those, is that pair's run_error naming what to set. The key never reaches a replay: a
// provider's error or answer echoing it has it replaced by `[redacted]`.
import { z } from "zod";
import type { LanguageModel, ToolSet } from "ai";
import { REPLAY_KEYS, TOOL_CALL_KEYS, replayFromAiSdk, type AgentRuntime, type ReplayData, type RuntimeModel, type RuntimeScenario } from "@verdict/domain";
import { parseScript, readScriptFile } from "../scripting/index.js";
import { aiSdk, languageModel, providerReason } from "../judges/languageModel.js";
import { JUDGE_PROVIDERS, PROVIDER_SETTING, providerEndpointsFrom, type JudgeProvider, type ProviderEndpoints } from "../judges/providerRoute.js";
import { redactDeep, redactText, secretList } from "./redact.js";
import { fixtureAnswer, toolFixture, type ToolFixture } from "./chatFixtures.js";

const script = z
  .object({
    instructions: z.string().optional(),
    max_steps: z.number().int().min(1).max(25).default(5),
    tools: z.array(toolFixture).default([]),
  })
  .strict();

export type ChatScript = z.infer<typeof script>;

export class ChatScriptError extends Error {
  readonly code = "validation";
}

/** The keys a replay is read by: redaction leaves them as they are. */
const REPLAY_JSON_KEYS: ReadonlySet<string> = new Set([...REPLAY_KEYS, ...TOOL_CALL_KEYS]);

/** What a provider's error may say in a replay's error. */
const REASON_LIMIT = 500;

export class ChatAgent implements AgentRuntime {
  readonly #secrets: string[];
  readonly #models = new Map<string, Promise<LanguageModel>>();
  /** The tools as the SDK takes them, built on the first replay (the SDK is loaded then). */
  #toolSet: ToolSet | null = null;

  constructor(
    private readonly script: ChatScript,
    private readonly endpoints: ProviderEndpoints,
    readonly name = "chat",
  ) {
    this.#secrets = secretList(Object.values(endpoints).map((endpoint) => endpoint?.apiKey));
    const names = new Set<string>();
    for (const [index, tool] of script.tools.entries()) {
      if (names.has(tool.name)) throw new ChatScriptError(`chat agent: tools.${index}.name: repeats "${tool.name}"`);
      names.add(tool.name);
    }
  }

  static fromYaml(text: string, env: Record<string, string | undefined>, name?: string): ChatAgent {
    return new ChatAgent(parseScript(text, script, "chat agent", (message) => new ChatScriptError(message)), providerEndpointsFrom(env), name);
  }

  /** Reads the agent file (at most MAX_SCRIPT_BYTES, as every script); the providers come from `env`. */
  static async load(path: string, env: Record<string, string | undefined> = process.env): Promise<ChatAgent> {
    const text = await readScriptFile(path, "chat agent", (message) => new ChatScriptError(message));
    return ChatAgent.fromYaml(text, env, `chat:${path}`);
  }

  async replay(scenario: RuntimeScenario, model: RuntimeModel, { signal }: { signal: AbortSignal }): Promise<ReplayData> {
    const provider = this.#provider(model);
    const sdk = await aiSdk();
    const started = performance.now();
    let result: Awaited<ReturnType<typeof sdk.generateText>>;
    try {
      result = await sdk.generateText({
        model: await this.#languageModel(provider, model.model),
        system: this.script.instructions,
        prompt: scenario.prompt,
        tools: (this.#toolSet ??= this.#tools(sdk)),
        stopWhen: sdk.stepCountIs(this.script.max_steps),
        abortSignal: signal,
        maxRetries: 2,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new Error(redactText(`${provider} call failed: ${providerReason(error)}`, this.#secrets).slice(0, REASON_LIMIT));
    }
    const replay = replayFromAiSdk(result, { durationMs: Math.round(performance.now() - started) }).toJSON();
    // Redacted as data: the SDK's result is made of class instances the replay reads as they are.
    return redactDeep(replay, this.#secrets, REPLAY_JSON_KEYS) as ReplayData;
  }

  /** The provider's client for `model`, made once per model and reused by every replay on it. */
  #languageModel(provider: JudgeProvider, model: string): Promise<LanguageModel> {
    const key = `${provider}/${model}`;
    let made = this.#models.get(key);
    if (!made) {
      made = languageModel({ provider, model }, this.endpoints[provider]!);
      this.#models.set(key, made);
    }
    return made;
  }

  /** The pair's provider, when it is one the environment configures; else why not, as the pair's error. */
  #provider(model: RuntimeModel): JudgeProvider {
    const provider = model.provider as JudgeProvider;
    if (!(JUDGE_PROVIDERS as readonly string[]).includes(provider)) {
      throw new Error(`chat agent: ${model.label} is on ${model.provider}, which it cannot call; it calls ${JUDGE_PROVIDERS.join(", ")} (e.g. openai/${model.model})`);
    }
    if (!this.endpoints[provider]) throw new Error(`chat agent: ${model.label} is on ${provider}, which is not configured: set ${PROVIDER_SETTING[provider]}`);
    return provider;
  }

  /** The tools as the SDK takes them, each answering from its fixtures. */
  #tools(sdk: Awaited<ReturnType<typeof aiSdk>>): ToolSet {
    const tools: ToolSet = {};
    for (const fixture of this.script.tools) tools[fixture.name] = this.#tool(sdk, fixture);
    return tools;
  }

  #tool(sdk: Awaited<ReturnType<typeof aiSdk>>, fixture: ToolFixture): ToolSet[string] {
    return sdk.tool({
      description: fixture.description,
      inputSchema: sdk.jsonSchema(fixture.parameters ?? { type: "object" }),
      // A thrown error is the SDK's tool-error part, which the replay records as a failed call.
      execute: async (args: unknown) => fixtureAnswer(fixture, args),
    });
  }
}
