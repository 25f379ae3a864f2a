// Stream `agent-<digest>`: the releases of one agent of one tenant (reference-platform §1 #39).
// One version per digest ("record_release! cuts one version per digest"): a new digest is the
// next version, the latest digest again records nothing, and an earlier version's digest makes
// that version the latest again under its own number.
import type { Aggregate } from "../aggregate.js";
import { DomainError } from "../../events/domainError.js";
import type { DomainEvent, EventInput } from "../../events/registry.js";
import type { ReleaseData } from "../../events/shared.js";
import { RecordAgentRelease } from "./agentCommands.js";
import { manifestDigest } from "./releaseManifest.js";

export interface AgentVersion {
  version: number;
  digest: string;
  /** The revision the version was first recorded with. */
  revision: string | null;
}

export interface AgentState {
  tenant: string | null;
  agent: string | null;
  /** Every version, in number order (versions[n - 1] is v<n>). */
  versions: AgentVersion[];
  /** The latest release's version number; null before any is recorded. */
  latest: number | null;
}

export function initialAgentState(): AgentState {
  return { tenant: null, agent: null, versions: [], latest: null };
}

export function evolveAgent(state: AgentState, event: DomainEvent): AgentState {
  if (event.type !== "AgentReleaseRecorded") return state;
  const d = event.data;
  const known = state.versions.some((v) => v.version === d.version);
  const versions = known ? state.versions : [...state.versions, { version: d.version, digest: d.digest, revision: d.revision }];
  return { tenant: d.tenant, agent: d.agent, versions, latest: d.version };
}

/** The agent's latest version, or null before any release is recorded. */
export function latestVersion(state: AgentState): AgentVersion | null {
  return state.latest === null ? null : (state.versions.find((v) => v.version === state.latest) ?? null);
}

/** The release a run pins: the latest version as `{ digest, revision, label: "v<N>" }`, or null. */
export function latestRelease(state: AgentState): ReleaseData | null {
  const latest = latestVersion(state);
  return latest && { digest: latest.digest, revision: latest.revision, label: `v${latest.version}` };
}

function decide(state: AgentState, command: RecordAgentRelease): EventInput[] {
  // The stream is keyed by (tenant, agent), so it is never another's; a mismatch is a bug.
  if (state.tenant !== null && (state.tenant !== command.tenant || state.agent !== command.agent)) {
    throw DomainError.conflict(`the release stream of agent ${JSON.stringify(command.agent)} belongs to another agent`, "agent");
  }
  const digest = command.digest ?? manifestDigest(command.manifest!);
  if (latestVersion(state)?.digest === digest) return [];
  const { tenant, agent } = command;
  const earlier = state.versions.find((v) => v.digest === digest);
  if (earlier) {
    return [{ type: "AgentReleaseRecorded", data: { tenant, agent, version: earlier.version, digest, revision: earlier.revision, returned: true } }];
  }
  // The manifest is not recorded: only its digest is (releaseManifest.ts).
  return [{ type: "AgentReleaseRecorded", data: { tenant, agent, version: state.versions.length + 1, digest, revision: command.revision, returned: false } }];
}

export const agentAggregate: Aggregate<AgentState, RecordAgentRelease> = {
  name: "agent",
  commandSchema: RecordAgentRelease,
  initialState: initialAgentState,
  evolve: evolveAgent,
  decide,
  // A lost race is decided again on the winner's releases: the same digest is then a no-op, another
  // takes the next number.
  retryOnConflict: () => true,
};
