// The write half of a command that touches two streams (StartRun, ImportReport, CreateEvaluation):
// both decisions were made from one read of each stream, so either both are appended or, when
// the first stream moved since that read, neither is and the caller decides again.
import { WrongExpectedVersionError, type EventStore } from "../ports/eventStore.js";
import type { Aggregate } from "./aggregate.js";
import { appendDecision, lostRace, type Decision, type HandledCommand } from "./handleCommand.js";

/** One stream's decision: the aggregate that folds it, and the stream as it was read. */
interface StreamDecision<S, C extends { type: string }, X> {
  aggregate: Aggregate<S, C, X>;
  streamId: string;
  loaded: { state: S; version: bigint | null };
  decision: Decision;
}

interface AppendBothOptions<A, B> {
  command: { type: string };
  /** This attempt (from 1) and how many lost races on the first stream are decided again. */
  attempt: number;
  retries: number;
  /** Answers a race lost on the second stream once the first is written: its aggregate decides again. */
  secondLost: (first: HandledCommand<A>) => Promise<HandledCommand<B>>;
}

/**
 * Appends the first decision, then the second. A race lost on the first stream writes nothing
 * and answers null (decide both again from a new read) until the retries are spent; one lost
 * on the second goes to `secondLost`, as the first is already written.
 */
export async function appendBoth<A, CA extends { type: string }, XA, B, CB extends { type: string }, XB>(
  store: EventStore,
  first: StreamDecision<A, CA, XA>,
  second: StreamDecision<B, CB, XB>,
  options: AppendBothOptions<A, B>,
): Promise<[HandledCommand<A>, HandledCommand<B>] | null> {
  let written: HandledCommand<A>;
  try {
    written = await appendDecision(store, first.aggregate, first.streamId, first.loaded, first.decision, options.attempt);
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError)) throw error;
    if (options.attempt > options.retries) throw lostRace(options.command, first.streamId, options.attempt, error);
    return null;
  }
  try {
    return [written, await appendDecision(store, second.aggregate, second.streamId, second.loaded, second.decision, 1)];
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError)) throw error;
    return [written, await options.secondLost(written)];
  }
}
