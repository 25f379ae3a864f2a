// VERDICT_JUDGE: which completion the worker's Judge runs on. `scripted:<path.yaml>` answers
// from a script; `none` means rules only (no judge call is ever made). Model-provider judges
// come later behind the same JudgeBackend.
import { shownSpec } from "../agents/shownSpec.js";
import { ScriptedJudge, type JudgeBackend } from "./scriptedJudge.js";

export async function judgeFromSpec(spec: string): Promise<JudgeBackend | null> {
  const trimmed = spec.trim();
  if (trimmed === "none") return null;
  const scripted = /^scripted:(.+)$/.exec(trimmed);
  if (scripted) return ScriptedJudge.load(scripted[1]);
  throw new Error(`VERDICT_JUDGE must be "none" or "scripted:<path to a judge script>" ${shownSpec(spec)}`);
}
