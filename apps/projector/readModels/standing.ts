// An evaluation's standing (reference-platform §1 #40, §7 item 15), read from the read models when
// asked, never stored: it depends on the evaluation's headline run (projected) and on its agent's
// latest release (projected from another stream), so recording a release changes the standing of
// every evaluation of the agent at once, with nothing to update. For an evaluation `e`:
//
//   archived    it is archived (whatever its runs);
//   none        it has no COMPLETED run (running and failed runs never head it);
//   unrecorded  its headline run (newest COMPLETED, by number) pinned no release;
//   current     the headline's release digest is the agent's latest recorded digest, or the agent
//               has no recorded release (nothing newer is known than what the run pinned);
//   stale       the agent's latest recorded digest is another.
//
// Only current and unrecorded evaluations count in the agent's pooled pass rate (agents.ts).
export type Standing = "current" | "stale" | "unrecorded" | "archived" | "none";

/** `standing` of the evaluation aliased `e` (any query over `evaluations e`). */
export const STANDING_SQL = `CASE WHEN e.archived THEN 'archived' WHEN e.headline_run_id IS NULL THEN 'none'
  ELSE coalesce((SELECT CASE WHEN h.release->>'digest' IS NULL THEN 'unrecorded'
      WHEN a.latest_digest IS NULL OR a.latest_digest = h.release->>'digest' THEN 'current' ELSE 'stale' END
    FROM runs h LEFT JOIN agents a ON a.tenant = e.tenant AND a.name = e.agent
    WHERE h.id = e.headline_run_id AND h.tenant = e.tenant), 'none') END`;

/** The standings that count in a pooled pass rate. */
export const COUNTED_STANDINGS: readonly Standing[] = ["current", "unrecorded"];
