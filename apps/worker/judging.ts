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
  /** A judge call unanswered after this long is skipped (the grade degrades to rules). */
  timeoutMs?: number | null;
}

export function judgeForRun(started: EventData<"RunStarted">, options: WorkerJudgeOptions): Judge | null {
  const backend = options.backend;
  if (!backend || started.judge.kind === "rules") return null;
  return new Judge({
    label: started.judge_label ?? backend.name,
    complete: (request) => backend.complete(request, pairContext.getStore() ?? {}),
    timeoutMs: options.timeoutMs ?? null,
  });
}
