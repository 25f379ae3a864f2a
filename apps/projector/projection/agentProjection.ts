// agents and agent_releases: each version of an agent as first recorded, and the agent's latest
// version (AgentReleaseRecorded, on the agent's own stream). An evaluation's standing is read
// from these and its headline run (headline below, readModels/standing.ts), so recording a
// release changes every standing of the agent's evaluations without a row of theirs changing.
import type { EventOf } from "@verdict/domain";
import type { Sql } from "../db/sql.js";
import type { Envelope } from "./batch.js";

export async function agentReleaseRecorded(sql: Sql, event: EventOf<"AgentReleaseRecorded">, envelope: Envelope): Promise<void> {
  const d = event.data;
  // A return to an earlier version (returned) finds its row: the version keeps its first record.
  await sql.execute(
    `INSERT INTO agent_releases (tenant, agent, version, digest, revision, recorded_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (tenant, agent, version) DO NOTHING`,
    [d.tenant, d.agent, d.version, d.digest, d.revision, envelope.at],
  );
  await sql.execute(
    `INSERT INTO agents (tenant, name, latest_version, latest_digest, latest_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (tenant, name) DO UPDATE SET latest_version = excluded.latest_version, latest_digest = excluded.latest_digest, latest_at = excluded.latest_at`,
    [d.tenant, d.agent, d.version, d.digest, envelope.at],
  );
}

/**
 * The run, once COMPLETED, heads its evaluation when no higher-numbered run completed before it:
 * the headline is the newest completed run by number (reference-platform §1 #40), whichever
 * finished first. A failed or running run never heads it. Numbers only grow, so a redelivery
 * changes nothing.
 */
export async function headline(sql: Sql, runId: string): Promise<void> {
  await sql.execute(
    `UPDATE evaluations e SET headline_run_id = r.id, headline_run_number = r.number
     FROM runs r WHERE r.id = ? AND r.status = 'COMPLETED' AND e.id = r.evaluation_id AND e.tenant = r.tenant
       AND (e.headline_run_number IS NULL OR e.headline_run_number < r.number)`,
    [runId],
  );
}

/**
 * The release a run pinned, as the read models keep it: `{ digest, revision, label }` when it
 * names a digest (non-blank text), else null. An imported report's `release` is the host's JSON,
 * any shape: one without a digest text is no pinned release (its standing is unrecorded), and its
 * other parts are text or null.
 */
export function pinnedRelease(value: unknown): { digest: string; revision: string | null; label: string | null } | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const { digest, revision, label } = value as Record<string, unknown>;
  if (typeof digest !== "string" || digest.trim() === "") return null;
  const text = (part: unknown) => (typeof part === "string" ? part : null);
  return { digest, revision: text(revision), label: text(label) };
}
