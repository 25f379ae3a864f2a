// The judge a run is scored with: the core's Judge around the worker's completion backend,
// labelled with the judge the run recorded. Rules-only runs, and workers without a backend,
// get no judge (scoring degrades to rules, as the guide says a missing judge does).
// The pair being graded travels in an AsyncLocalStorage so a scripted backend can match answers
// by scenario key without the core's Judge knowing about pairs.
import { AsyncLocalStorage } from "node:async_hooks";
import { Judge, type EventData } from "@verdict/domain";
import type { JudgeBackend, JudgeCallContext } from "@verdict/infra/judges";

const pairContext = new AsyncLocalStorage<JudgeCallContext>();

/** Runs `work` with the pair it grades visible to the judge backend. */
export function withPairContext<T>(context: JudgeCallContext, work: () => Promise<T>): Promise<T> {
  return pairContext.run(context, work);
}

export interface WorkerJudgeOptions {
  backend: JudgeBackend | null;
  /**
   * A judge call unanswered after this long is skipped (the grade degrades to rules). Omitted: the
   * core Judge's default (DEFAULT_JUDGE_TIMEOUT_MS), so an embedded worker is bounded too; null: no limit.
   */
  timeoutMs?: number | null;
}

/** A run's judge, or why the run cannot be judged the way it asks. */
interface RunJudge {
  /** Null: rules only. */
  judge: Judge | null;
  /** Set when the run's judge model cannot be served (guide "Routing a pinned judge"): the run fails with it. */
  refusal: string | null;
}

export function judgeForRun(started: EventData<"RunStarted">, options: WorkerJudgeOptions): RunJudge {
  const backend = options.backend;
  if (!backend || started.judge.kind === "rules") return { judge: null, refusal: null };
  // Model providers route each run by its judge model; other backends judge every run alike.
  const routed = backend.forModel ? backend.forModel(started.judge.model) : backend;
  if ("reason" in routed) return { judge: null, refusal: routed.failsRun ? `the run's judge cannot be reached: ${routed.reason}` : null };
  const judge = new Judge({
    label: started.judge_label ?? routed.name,
    complete: (request) => routed.complete(request, pairContext.getStore() ?? {}),
    timeoutMs: options.timeoutMs,
  });
  return { judge, refusal: null };
}
