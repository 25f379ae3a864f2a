// Recording an agent's release: the command on the agent's own stream, and what it came to.
import type { EventStore } from "../../ports/eventStore.js";
import { agentStream } from "../../events/streams.js";
import { parseOrThrow } from "../../events/zodIssues.js";
import { handleCommand, type HandledCommand, type HandleOptions } from "../handleCommand.js";
import { agentAggregate, latestVersion, type AgentState, type AgentVersion } from "./agentAggregate.js";
import { RecordAgentRelease } from "./agentCommands.js";
import { manifestDigest } from "./releaseManifest.js";
import { CONTENDED_RETRIES, contendedPauses } from "../contention.js";

/** NEW: a digest never recorded, the next version; RETURNED: an earlier version's, the latest again; UNCHANGED: already the latest, nothing written. */
export type ReleaseOutcome = "new" | "returned" | "unchanged";

export interface RecordedAgentRelease {
  handled: HandledCommand<AgentState>;
  /** The agent's latest version after the command: the one the digest names. */
  release: AgentVersion;
  outcome: ReleaseOutcome;
}

/**
 * Records the release, deciding again after a lost race as StartRun does (contention.ts): many
 * deploys may record an agent's releases at once (replicas, one pipeline per service), and with
 * the default 3 immediate retries 10 concurrent new digests left some refused. The pauses are
 * seeded by the stream and digest, so concurrent digests pause apart. The manifest is digested
 * once, here, and only its digest goes on to the decider: nothing of it is kept.
 */
export async function recordAgentRelease(store: EventStore, input: unknown, options: Omit<HandleOptions<never>, "decideContext">): Promise<RecordedAgentRelease> {
  const parsed = parseOrThrow(RecordAgentRelease, { type: "RecordAgentRelease", ...(input as object) }, "command is invalid");
  const command: RecordAgentRelease = { ...parsed, digest: parsed.digest ?? manifestDigest(parsed.manifest!), manifest: null };
  const streamId = agentStream(command.tenant, command.agent);
  const handled = await handleCommand(store, agentAggregate, streamId, command, {
    ...options,
    retries: options.retries ?? CONTENDED_RETRIES,
    pause: options.pause ?? contendedPauses(`${streamId} ${command.digest}`),
  });
  const event = handled.domainEvents[0];
  const outcome: ReleaseOutcome = !event ? "unchanged" : event.type === "AgentReleaseRecorded" && event.data.returned ? "returned" : "new";
  return { handled, release: latestVersion(handled.state)!, outcome };
}
