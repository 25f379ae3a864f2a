// VERDICT_JUDGE: which completion the worker's Judge runs on. `scripted:<path.yaml>` answers
// from a script; `providers` calls model providers (providerJudge.ts), each run's judge model
// picking the route; `none` means rules only (no judge call is ever made).
import { shownSpec } from "../agents/shownSpec.js";
import { ProviderJudges, type ProviderJudgeOptions } from "./providerJudge.js";
import { providerEndpointsFrom, routeJudge } from "./providerRoute.js";
import { ScriptedJudge, type JudgeBackend } from "./scriptedJudge.js";

export async function judgeFromSpec(spec: string, env: Record<string, string | undefined> = process.env, options: ProviderJudgeOptions = {}): Promise<JudgeBackend | null> {
  const trimmed = spec.trim();
  if (trimmed === "none") return null;
  const scripted = /^scripted:(.+)$/.exec(trimmed);
  if (scripted) return ScriptedJudge.load(scripted[1]);
  if (trimmed === "providers") return providerJudges(env, options);
  throw new Error(`VERDICT_JUDGE must be "none", "providers" or "scripted:<path to a judge script>" ${shownSpec(spec)}`);
}

/** The model-provider judges; asking for them with no provider configured is a mistake, said at once. */
export function providerJudges(env: Record<string, string | undefined>, options: ProviderJudgeOptions = {}): ProviderJudges {
  const endpoints = providerEndpointsFrom(env);
  const unrouted = routeJudge(null, endpoints);
  if ("reason" in unrouted) throw new Error(`"providers" judges need a model provider: ${unrouted.reason}`);
  return new ProviderJudges(endpoints, options);
}
