// A job that fails the same way every time (a bug or data the core cannot take) must not be
// redelivered forever while its run waits: after a few attempts its run fails, naming the pair
// and the error. Failures that may pass (the database or broker unreachable, a lost race) keep
// being redelivered, as at-least-once delivery intends.
import { DomainError, handleCommand, runAggregate, runStream, type Clock, type EventStore, type IdGenerator } from "@verdict/domain";
import type { WorkerLog } from "./workerLog.js";

const DEFAULT_MAX_ATTEMPTS = 3;

function isPermanent(error: unknown): boolean {
  if (error instanceof DomainError) return error.code === "validation";
  return error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError || error instanceof ReferenceError;
}

interface PoisonDeps {
  store: EventStore;
  clock: Clock;
  ids: IdGenerator;
  actor: string;
  log: WorkerLog;
  maxAttempts?: number;
}

/**
 * Runs `work`; when it throws a permanent error on its last allowed attempt, fails the run with
 * `what` and the error instead of throwing (so the job is acknowledged). Otherwise rethrows.
 */
export async function failRunOnPoison(deps: PoisonDeps, job: { runId: string; tenant: string; attempt: number; what: string }, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!isPermanent(error) || job.attempt < (deps.maxAttempts ?? DEFAULT_MAX_ATTEMPTS)) throw error;
    const message = `${job.what} failed ${job.attempt} times: ${(error as Error).message}`;
    deps.log.error(`run ${job.runId}: ${message}`);
    await failRun(deps, job, message);
  }
}

/** Appends RunFailed with `message`; a run that already ended (or is gone) is left as it is. */
export async function failRun(deps: Omit<PoisonDeps, "log" | "maxAttempts">, run: { runId: string; tenant: string }, message: string): Promise<void> {
  await handleCommand(deps.store, runAggregate, runStream(run.runId), { type: "FailRun", run_id: run.runId, message }, {
    clock: deps.clock,
    ids: deps.ids,
    context: { tenant: run.tenant, actor: deps.actor },
  }).catch((failure: unknown) => {
    // Already ended (or gone): nothing left to fail; the job is done either way.
    if (!(failure instanceof DomainError) || (failure.code !== "conflict" && failure.code !== "not_found")) throw failure;
  });
}
