// `scripted:<path>`, `providers[:<model>]` or `none`: the judge a setting names (--judge,
// VERDICT_JUDGE), read here once for the CLI and the worker, which name their own setting in its
// errors (as agentSpecOf does for the agent). `scripted` answers from a script; `providers` calls
// model providers (providerJudge.ts), MODEL pinning the judge model; `none` means rules only.
import { scriptLoaded, SettingError } from "../settings/index.js";
import { ProviderJudges, type ProviderJudgeOptions } from "./providerJudge.js";
import { providerEndpointsFrom, routeJudge } from "./providerRoute.js";
import { ScriptedJudge, type JudgeBackend } from "./scriptedJudge.js";

export type JudgeSpec = { kind: "none" } | { kind: "scripted"; path: string } | { kind: "providers"; model: string | null };

/** The judge `spec` names; null for a spec of no known form (the caller says which forms it takes). */
export function parseJudgeSpec(spec: string): JudgeSpec | null {
  const trimmed = spec.trim();
  if (trimmed === "none") return { kind: "none" };
  const scripted = /^scripted:(.+)$/.exec(trimmed);
  if (scripted) return { kind: "scripted", path: scripted[1] };
  const providers = /^providers(?::(.*))?$/.exec(trimmed);
  if (providers) return { kind: "providers", model: providers[1]?.trim() || null };
  return null;
}

/**
 * The backend of a parsed judge spec, or null for rules only; for `providers` the unrouted
 * ProviderJudges (routing a pinned model is the caller's). A script that cannot be loaded, or
 * providers with none configured, is a SettingError naming `setting` (--judge, VERDICT_JUDGE).
 */
export async function loadJudge(setting: string, spec: JudgeSpec, env: Record<string, string | undefined> = process.env, options: ProviderJudgeOptions = {}): Promise<JudgeBackend | null> {
  if (spec.kind === "none") return null;
  if (spec.kind === "scripted") return scriptLoaded(setting, spec.path, () => ScriptedJudge.load(spec.path));
  try {
    return providerJudges(env, options);
  } catch (error) {
    throw new SettingError(setting, `${setting}: ${(error as Error).message}`);
  }
}

/** The model-provider judges; asking for them with no provider configured is a mistake, said at once. */
export function providerJudges(env: Record<string, string | undefined>, options: ProviderJudgeOptions = {}): ProviderJudges {
  const endpoints = providerEndpointsFrom(env);
  const unrouted = routeJudge(null, endpoints);
  if ("reason" in unrouted) throw new Error(`"providers" judges need a model provider: ${unrouted.reason}`);
  return new ProviderJudges(endpoints, options);
}
