// What the projection computes has a version. Bump PROJECTION_VERSION in the same commit as any
// change to what a handler under projection/ writes for the same events (a column computed
// otherwise, a new column filled from events, an order, a rounding): migrations change tables,
// not the rows earlier code computed, so a read database upgraded in place kept those and
// differed from a rebuild (an imported run's judge usage 37 calls where its report says 38).
// The version is stored with the checkpoint (migration 007); a projector whose version differs
// rebuilds the read models from the log before following it (projector.ts). A change that only
// makes the projection faster, or that no event already in a log can reach, needs no bump.
import type { Sql } from "../db/sql.js";
import { READ_MODEL_TABLES } from "../db/tables.js";

// 2: runs.host_run_id (migration 008), filled from ReportImported.
// 3: agents and agent_releases (migration 010) from AgentReleaseRecorded, evaluations' headline
//    run, and runs.release kept as { digest, revision, label } only when it names a digest.
// 4: results.judge_by_kind and results.judge_model (migration 011), filled from ResultScored's
//    judge exchanges and an imported result's judge_usage.
// 5: results.judge_source (migration 013); a result's judge figures follow the report's rule (the
//    replay's own metadata.judge_usage when it carries one, else the exchanges; an imported
//    result's metadata copy, not its top-level one), counted with the report's countOf, at most
//    16 kinds per result (the rest folded into "other"); an imported run's judge_usage.run counts
//    its calls and cost only, and an empty run_judge_usage is no run-level usage, as the report.
// 6: a result's judge cost from its exchanges is their costs summed whole and rounded once, as the
//    report's judgeUsageFromExchanges does (each call's was added to a rounded running total: three
//    calls of $0.0000672 read $0.000201 where the report said $0.000202).
export const PROJECTION_VERSION = 6;

/** How the stored read models relate to this build's projection. */
export interface ProjectionState {
  /** The stored version; null when written before versions (or when no checkpoint holds one). */
  stored: number | null;
  /** True when the rows were made by other projection code and must be rebuilt. */
  stale: boolean;
}

/**
 * A checkpoint carries the version its rows were projected with. Without a checkpoint, rows in
 * any read model come from an older install (or a partial restore): stale too. An empty read
 * database is not: projecting from the log's start is what it needs.
 */
export async function projectionState(sql: Sql, name: string): Promise<ProjectionState> {
  const rows = await sql.execute<{ version: number | null }>("SELECT projection_version AS version FROM projector_checkpoints WHERE name = ?", [name]);
  if (rows.length > 0) {
    const stored = rows[0].version === null ? null : Number(rows[0].version);
    return { stored, stale: stored !== PROJECTION_VERSION };
  }
  return { stored: null, stale: await holdsRows(sql) };
}

async function holdsRows(sql: Sql): Promise<boolean> {
  const any = READ_MODEL_TABLES.map((t) => `EXISTS (SELECT 1 FROM ${t.name})`).join(" OR ");
  const [row] = await sql.execute<{ any: boolean }>(`SELECT ${any} AS any`);
  return row.any;
}

/** What made the stored rows, in words: "by projection version 4" (the logs', and the API's /readyz). */
export function projectedBy(state: ProjectionState): string {
  return state.stored === null ? "by a projector older than projection versions" : `by projection version ${state.stored}`;
}

/** A line for the logs: what was stored, what this build projects. */
export function staleProjectionLine(state: ProjectionState): string {
  return `the read models were projected ${projectedBy(state)}; this build projects version ${PROJECTION_VERSION}: rebuilding them from the event log`;
}

/**
 * A projector found, when committing, that the stored version is not its own: a projector of
 * another version rebuilt the read models while this one followed (an old process left running
 * beside an upgraded one). It stops rather than write what its code computes over those rows.
 */
export class ProjectionVersionChangedError extends Error {
  constructor(stored: number | null) {
    super(
      `the read models are now those of projection version ${stored ?? "none"} (rebuilt by another projector); this projector projects version ${PROJECTION_VERSION} and stops ` +
        "rather than mix its rows with theirs. Run one projector version per read database",
    );
    this.name = "ProjectionVersionChangedError";
  }
}

/**
 * Stale read models over an empty log: a rebuild would empty them (the "production read database
 * wiped by a rebuild" finding), so nothing is rebuilt automatically.
 */
export class StaleReadModelsOfEmptyLogError extends Error {
  constructor(state: ProjectionState) {
    super(
      `the read database holds read models (projection version ${state.stored ?? "unknown"}) but this event log is empty: ` +
        "not rebuilding them from it. Point DATABASE_URL (or VERDICT_HOME) at the log they were projected from, " +
        "or VERDICT_READ_DATABASE_URL at an empty database (createdb) to start afresh",
    );
    this.name = "StaleReadModelsOfEmptyLogError";
  }
}
