// Which runs of the example's evaluation an earlier start left unfinished, and so are this start's
// to finish and report: those still going, and those that were going when this start began (its
// worker may finish one before it is listed: a run whose pairs were all scored lacks only its
// completion, which the restarted dispatcher sends at once). "When this start began" is what the
// read models held then, caught up with the log before this start's worker ran, not this
// process's clock against a run's completedAt: that time is the earlier start's clock, and one
// ahead (an NTP step back since, a resumed VM) made a run that had finished cleanly look finished
// by this start, so it was named left unfinished and its reports written again.
import type { Sql } from "@verdict/projector";
import type { RunRef } from "./exampleRun.js";

const GOING = ["PENDING", "RUNNING"];

/** The ids of every run going (PENDING or RUNNING) in the read models: call it once they are caught up, before the worker starts. */
export async function runsGoingNow(sql: Pick<Sql, "execute">): Promise<ReadonlySet<string>> {
  const rows = await sql.execute<{ id: string }>(`SELECT id FROM runs WHERE status IN (${GOING.map(() => "?").join(", ")})`, GOING);
  return new Set(rows.map((row) => row.id));
}

export interface ListedRun extends RunRef {
  external: boolean;
}

/**
 * The engine's runs left unfinished (going now, or going when this start began), and apart the
 * external runs still going: those are their host's to complete, named as such, never this start's.
 */
export function leftUnfinished(runs: readonly ListedRun[], goingAtStart: ReadonlySet<string>): { engine: RunRef[]; external: RunRef[] } {
  const going = (run: ListedRun) => GOING.includes(run.status);
  const ref = ({ id, number, status }: ListedRun): RunRef => ({ id, number, status });
  return {
    engine: runs.filter((run) => !run.external && (going(run) || goingAtStart.has(run.id))).map(ref),
    external: runs.filter((run) => run.external && going(run)).map(ref),
  };
}
