// Judge completions (DESIGN.md "infra/"): `scripted` (answers from a YAML script) and `none`.
export { ScriptedJudge, JudgeScriptError, type JudgeBackend, type JudgeCallContext, type JudgeScript, type ScriptedJudgeKind } from "./scriptedJudge.js";
export { judgeFromSpec } from "./judgeSpec.js";
