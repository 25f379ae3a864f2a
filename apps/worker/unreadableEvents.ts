// An event of the dispatcher's types that this code cannot read (its data fails the schema).
// Handling it again can never succeed, and the dispatcher handles the log in order, so retrying
// it held back every run behind it for ever (one line a second naming neither stream nor
// position). It is passed over instead: the run it belongs to is failed with the reason, so its
// host and the operator see why, and the line names the stream, version and log position.
import { handleCommand, runAggregate, runStream, isDomainError, type Clock, type EventStore, type IdGenerator, type RecordedEvent, type UnreadableEventError } from "@verdict/domain";
import type { WorkerLog } from "./workerLog.js";

interface UnreadableDeps {
  store: EventStore;
  clock: Clock;
  ids: IdGenerator;
  log: WorkerLog;
  actor?: string;
}

/** The run a run or result stream belongs to (`run-<id>`, `result-<id>.<n>`), else null. */
export function runIdOfStream(streamId: string): string | null {
  if (streamId.startsWith("run-")) return streamId.slice("run-".length);
  if (streamId.startsWith("result-") && streamId.includes(".")) return streamId.slice("result-".length, streamId.lastIndexOf("."));
  return null;
}

/**
 * Fails the run `recorded` belongs to and logs where the event is. A run that cannot be failed
 * (it ended already, or its own stream does not read) is logged as such and passed over too; a
 * store that fails to answer is thrown, so the event is handled again once it does.
 */
export async function passOverUnreadable(deps: UnreadableDeps, recorded: RecordedEvent, error: UnreadableEventError, tenant?: string): Promise<string | null> {
  const where = `${recorded.type} in stream ${recorded.streamId} at version ${recorded.streamVersion} (log position ${recorded.position.commit}/${recorded.position.prepare})`;
  const runId = runIdOfStream(recorded.streamId);
  deps.log.error(`dispatcher: passed over unreadable ${where}: ${error.reason}`);
  if (runId === null) return null;
  const message = `event ${where} could not be read: ${error.reason}`;
  try {
    const context = { tenant: tenant ?? String(recorded.metadata.tenant ?? ""), actor: deps.actor ?? "worker:dispatcher", causationId: recorded.id };
    await handleCommand(deps.store, runAggregate, runStream(runId), { type: "FailRun", run_id: runId, message }, { clock: deps.clock, ids: deps.ids, context });
    deps.log.error(`run ${runId} failed: ${message}`);
  } catch (failure) {
    if (!isDomainError(failure)) throw failure;
    deps.log.error(`run ${runId}: not failed for its unreadable event (${failure.message})`);
  }
  return runId;
}
