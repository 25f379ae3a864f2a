// An agent the user's own code runs in this process: `module:<path>` (--agent, VERDICT_AGENT)
// names a local JavaScript module exporting `replay(scenario, model, { signal })`, the function a
// library user hands the Runner (DESIGN.md "Agent runtimes"). It is given what an http agent is
// POSTed: the scenario (key, prompt, group, notes, expectations) and the model (label, provider,
// model), plus the signal the replay's budget aborts. It returns (or resolves to) a Replay or
// anything `Replay.from` takes (camelCase or snake_case keys); a throw, nothing, or an answer that
// is not a replay is that pair's run_error, never a failed run.
//
// The module is imported once, when the runtime is loaded, so a missing file, a syntax error, a
// module that throws as it loads or one without a replay function is refused before anything
// runs, naming the setting. Node 20 imports JavaScript only (.mjs, .js, .cjs); a TypeScript file
// is refused saying so, not with Node's ERR_UNKNOWN_FILE_EXTENSION.
//
// The module runs with this process's environment, the model providers' keys in it (which
// Verdict's own judge may use in the same run): a key the module echoes (an SDK's "401 Incorrect
// API key provided: sk-…", an answer that quotes it) is replaced by `[redacted]` in what it
// answers and throws, as the chat agent does (redact.ts), so it is never recorded or shown.
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Replay, REPLAY_KEYS, TOOL_CALL_KEYS, thrownText, type AgentRuntime, type ReplayData, type RuntimeModel, type RuntimeScenario } from "@verdict/domain";
import { PROVIDER_SETTING } from "../judges/providerRoute.js";
import { redactDeep, redactText, secretList } from "./redact.js";
import { timed } from "./timed.js";

export type ReplayFunction = (scenario: RuntimeScenario, model: RuntimeModel, options: { signal: AbortSignal }) => unknown;

export class ModuleAgentError extends Error {
  readonly code = "validation";
}

const TYPESCRIPT = /\.[cm]?tsx?$/i;

const EXPORT_RULE = "export a function named replay (export async function replay(scenario, model, { signal })), or make it the default export";

/** The keys a replay is read by: redaction leaves them as they are. */
const REPLAY_JSON_KEYS: ReadonlySet<string> = new Set([...REPLAY_KEYS, ...TOOL_CALL_KEYS]);

/** The model providers' keys `env` holds (ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY), as secretList looks for them. */
function providerKeysIn(env: Record<string, string | undefined>): string[] {
  return secretList(Object.values(PROVIDER_SETTING).filter((name) => name.endsWith("_API_KEY")).map((name) => env[name]?.trim()));
}

/** Hides the model providers' keys `env` holds in a line said of the module (its stray errors, on stderr). */
export function providerKeyRedactor(env: Record<string, string | undefined>): (text: string) => string {
  const secrets = providerKeysIn(env);
  return (text) => redactText(text, secrets);
}

export class ModuleAgent implements AgentRuntime {
  readonly #secrets: readonly string[];

  constructor(
    private readonly replayFn: ReplayFunction,
    readonly name = "module",
    env: Record<string, string | undefined> = {},
  ) {
    this.#secrets = providerKeysIn(env);
  }

  /**
   * Imports the module at `path` (relative to the working directory) and takes its replay
   * function. A missing file or a directory rejects with Node's own code (ENOENT, EISDIR), which
   * the setting's loader words (scriptLoaded); anything else with a ModuleAgentError.
   */
  static async load(path: string, env: Record<string, string | undefined> = process.env): Promise<ModuleAgent> {
    const absolute = resolve(path);
    const file = await stat(absolute);
    if (file.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: "EISDIR" });
    if (TYPESCRIPT.test(path)) throw new ModuleAgentError("agent module: Node.js 20 imports JavaScript only; compile it to .mjs or .js (tsc, esbuild) and name that file");
    let loaded: Record<string, unknown>;
    try {
      loaded = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
    } catch (error) {
      throw new ModuleAgentError(redactText(`agent module: could not be imported: ${importFailure(error)}`, providerKeysIn(env)));
    }
    const replayFn = replayExportOf(loaded);
    if (!replayFn) throw new ModuleAgentError(`agent module: exports no replay function; ${EXPORT_RULE}`);
    return new ModuleAgent(replayFn, `module:${path}`, env);
  }

  async replay(scenario: RuntimeScenario, model: RuntimeModel, { signal }: { signal: AbortSignal }): Promise<ReplayData> {
    const started = performance.now();
    let answer: unknown;
    try {
      answer = await this.replayFn(scenario, model, { signal });
    } catch (error) {
      throw this.#redactedError(error);
    }
    // Redacted as data, once it is known to be a replay (and JSON): the keys it is read by kept.
    let data: ReplayData;
    try {
      data = replayDataOf(answer);
    } catch (error) {
      // Its error quotes the start of a wrong value, which may be a key.
      throw this.#redactedError(error);
    }
    return timed(redactDeep(data, this.#secrets, REPLAY_JSON_KEYS) as ReplayData, Math.round(performance.now() - started));
  }

  /**
   * The module's throw with any provider key in it redacted: an Error keeps its class (its message
   * replaced, when it can be), anything else becomes its text (a thrown object its JSON, which
   * Replay.failed would record), redacted.
   */
  #redactedError(error: unknown): unknown {
    if (this.#secrets.length === 0) return error;
    const text = thrownText(error);
    const redacted = redactText(text, this.#secrets);
    if (redacted === text) return error;
    if (error instanceof Error) {
      try {
        error.message = redactText(error.message, this.#secrets);
        // Its class name may quote a key too: the Error stands only when its whole text is clean.
        if (thrownText(error) === redacted) return error;
      } catch {
        // A message that cannot be set (a getter): the redacted text stands in for the error.
      }
    }
    return redacted;
  }
}

/**
 * Why the import failed. Node 20 gives a module's syntax error no line, so the user is told the
 * command that shows it; a module's own throw (a missing key, say) is its message.
 */
function importFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "SyntaxError") return `SyntaxError: ${error.message} (node --check on the file shows the line)`;
  return error.message;
}

/**
 * `replay` as a named export, the default export when it is a function, or the default export's
 * `replay` (CommonJS `module.exports = { replay }`, `module.exports = new MyAgent()`, `export
 * default { greeting, replay() { return this.greeting } }`): that one bound to the object it is a
 * method of, as `agent.replay(...)` calls it. Taken unbound, its `this` was this ModuleAgent, and
 * `this.prefix` read undefined: answers the agent never gave were scored.
 */
function replayExportOf(loaded: Record<string, unknown>): ReplayFunction | null {
  if (typeof loaded.replay === "function") return loaded.replay as ReplayFunction;
  if (typeof loaded.default === "function") return loaded.default as ReplayFunction;
  const object = loaded.default as Record<string, unknown> | null | undefined;
  const method = typeof object === "object" && object !== null ? object.replay : undefined;
  return typeof method === "function" ? (method as ReplayFunction).bind(object) : null;
}

/** What the function returned, checked by `Replay.from` (which names a wrong key or value). */
function replayDataOf(answer: unknown): ReplayData {
  if (answer === null || answer === undefined) throw new ModuleAgentError(`replay() returned ${String(answer)}: return a Replay or an object with its keys (answer, tool_calls, …)`);
  try {
    return Replay.from(answer).toJSON();
  } catch (error) {
    throw new ModuleAgentError(`replay() returned an invalid replay: ${(error as Error).message}`);
  }
}
