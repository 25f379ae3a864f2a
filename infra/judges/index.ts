// Judge completions (DESIGN.md "infra/"): `scripted` (answers from a YAML script), `providers`
// (model providers through the AI SDK, routed by each run's judge model) and `none`.
export { ScriptedJudge, JudgeScriptError, type JudgeBackend, type JudgeCallContext, type JudgeScript, type ScriptedJudgeKind } from "./scriptedJudge.js";
export { loadJudge, parseJudgeSpec, providerJudges, type JudgeSpec } from "./judgeSpec.js";
export { ProviderJudge, ProviderJudges, type ProviderJudgeOptions } from "./providerJudge.js";
export { DEFAULT_JUDGE_MODELS, isRoute, providerEndpointsFrom, routeJudge, JUDGE_PROVIDERS, type JudgeProvider, type JudgeRoute, type NoJudgeRoute, type ProviderEndpoint, type ProviderEndpoints } from "./providerRoute.js";
