// `--agent scripted:FILE|http:URL` and `--judge scripted:FILE|providers[:MODEL]|none`: the agent runtime and the
// judge completion a command runs with. A bad spec or an unreadable script is a usage error that
// names the flag.
import type { AgentRuntime } from "@verdict/domain";
import { agentSpecOf, ScriptedAgent, shownSpec, type AgentSpec } from "@verdict/infra/agents";
import { providerJudges, ScriptedJudge, type JudgeBackend, type ProviderJudges } from "@verdict/infra/judges";
import { CliError } from "./errors.js";

async function loaded<T>(flag: string, path: string, load: (path: string) => Promise<T>): Promise<T> {
  try {
    return await load(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT") throw new CliError(`${flag}: no such file ${path}`);
    if (code === "EISDIR") throw new CliError(`${flag}: ${path} is a directory, not a script file`);
    throw new CliError(`${flag}: ${(error as Error).message}`);
  }
}

export async function agentFromFlag(spec: string): Promise<AgentRuntime> {
  let parsed: AgentSpec | null;
  try {
    parsed = agentSpecOf(spec);
  } catch (error) {
    throw new CliError(`--agent: ${(error as Error).message}`);
  }
  if (parsed?.kind === "scripted") return loaded("--agent", parsed.path, (path) => ScriptedAgent.load(path));
  if (parsed?.kind === "http") return parsed.agent;
  throw new CliError(`--agent must be scripted:<agent script.yaml> or http:<url of your replay endpoint> ${shownSpec(spec)}`);
}

/**
 * The judge backend, or null for rules only. `providers[:MODEL]` judges on a model provider
 * configured in `env` (its API key), MODEL routed as a run's judge model is (providerRoute.ts);
 * without MODEL the backend routes the catalog set's judge model when the run starts (localRun).
 */
export async function judgeFromFlag(spec: string, env: Record<string, string | undefined> = process.env): Promise<JudgeBackend | null> {
  const trimmed = spec.trim();
  if (trimmed === "none") return null;
  const match = /^scripted:(.+)$/.exec(trimmed);
  if (match) return loaded("--judge", match[1], (path) => ScriptedJudge.load(path));
  const providers = /^providers(?::(.*))?$/.exec(trimmed);
  if (providers) {
    let judges: ProviderJudges;
    try {
      judges = providerJudges(env);
    } catch (error) {
      throw new CliError(`--judge: ${(error as Error).message}`);
    }
    const pin = providers[1]?.trim();
    return pin ? routedJudge(judges, pin, "--judge") : judges;
  }
  throw new CliError(`--judge must be scripted:<judge script.yaml>, providers[:<judge model>] or none ${shownSpec(spec)}`);
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
