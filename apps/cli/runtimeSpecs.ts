// `--agent scripted:FILE|module:FILE|chat:FILE|http:URL` and `--judge scripted:FILE|providers[:MODEL]|none`: the agent runtime and the
// judge completion a command runs with. A bad spec or an unreadable script is a usage error that
// names the flag.
import type { AgentRuntime } from "@verdict/domain";
import { loadAgent, shownSpec } from "@verdict/infra/agents";
import { loadJudge, parseJudgeSpec, type JudgeBackend, type ScriptedJudge } from "@verdict/infra/judges";
import { SettingError } from "@verdict/infra/settings";
import { CliError } from "./errors.js";

/** A setting's error (infra's SettingError, naming the flag) as a usage error. */
async function usage<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw error instanceof SettingError ? new CliError(error.message) : error;
  }
}

/** The agent runtime `--agent` names; a chat agent reaches its model providers with the keys in `env`. */
export async function agentFromFlag(spec: string, env: Record<string, string | undefined> = process.env): Promise<AgentRuntime> {
  return usage(() => loadAgent("--agent", spec, env));
}

/**
 * The judge backend, or null for rules only. `providers[:MODEL]` judges on a model provider
 * configured in `env` (its API key), MODEL routed as a run's judge model is (providerRoute.ts);
 * without MODEL the backend routes the catalog set's judge model when the run starts (localRun).
 */
export async function judgeFromFlag(spec: string, env: Record<string, string | undefined> = process.env): Promise<JudgeBackend | null> {
  const parsed = parseJudgeSpec(spec);
  if (!parsed) throw new CliError(`--judge must be scripted:<judge script.yaml>, providers[:<judge model>] or none ${shownSpec(spec)}`);
  const backend = await usage(() => loadJudge("--judge", parsed, env));
  return parsed.kind === "providers" && parsed.model && backend ? routedJudge(backend, parsed.model, "--judge") : backend;
}

/** The label a scripted judge gives itself, else its backend name. */
export function judgeLabelOf(backend: JudgeBackend): string {
  return (backend as Partial<ScriptedJudge>).judgeName ?? backend.name;
}

/**
 * A backend that routes by judge model (model providers) routed for `pin`; one that cannot serve
 * the pin is a usage error naming `where` and what to set, never a grade from another provider.
 */
export function routedJudge(backend: JudgeBackend, pin: string | null, where: string): JudgeBackend {
  if (!backend.forModel) return backend;
  const routed = backend.forModel(pin);
  if ("reason" in routed) throw new CliError(`${where}: ${routed.reason}`);
  return routed;
}
