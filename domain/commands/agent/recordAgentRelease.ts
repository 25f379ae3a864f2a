// Recording an agent's release: the command on the agent's own stream, and what it came to.
import type { EventStore } from "../../ports/eventStore.js";
import { agentStream } from "../../events/streams.js";
import { parseOrThrow } from "../../events/zodIssues.js";
import { handleCommand, type HandledCommand, type HandleOptions } from "../handleCommand.js";
import { agentAggregate, latestVersion, type AgentState, type AgentVersion } from "./agentAggregate.js";
import { RecordAgentRelease } from "./agentCommands.js";

/** NEW: a digest never recorded, the next version; RETURNED: an earlier version's, the latest again; UNCHANGED: already the latest, nothing written. */
export type ReleaseOutcome = "new" | "returned" | "unchanged";

export interface RecordedAgentRelease {
  handled: HandledCommand<AgentState>;
  /** The agent's latest version after the command: the one the digest names. */
  release: AgentVersion;
  outcome: ReleaseOutcome;
}

export async function recordAgentRelease(store: EventStore, input: unknown, options: Omit<HandleOptions<never>, "decideContext">): Promise<RecordedAgentRelease> {
  const command = parseOrThrow(RecordAgentRelease, { type: "RecordAgentRelease", ...(input as object) }, "command is invalid");
  const handled = await handleCommand(store, agentAggregate, agentStream(command.tenant, command.agent), command, options);
  const event = handled.domainEvents[0];
  const outcome: ReleaseOutcome = !event ? "unchanged" : event.type === "AgentReleaseRecorded" && event.data.returned ? "returned" : "new";
  return { handled, release: latestVersion(handled.state)!, outcome };
}
