// The read models' rebuild generation (projector_rebuilds, migration 009): raised by every rebuild,
// read by the caches of finished runs, which take a run's rows as final once it ended and must
// forget them when a rebuild may have changed them (readModels/rebuildWatch.ts).
import type { Sql } from "../db/sql.js";

/** Raises the generation, in the caller's transaction (the one that truncates the read models). */
export async function raiseRebuildGeneration(sql: Sql): Promise<void> {
  await sql.execute(
    "INSERT INTO projector_rebuilds (id, generation) VALUES (true, 1) ON CONFLICT (id) DO UPDATE SET generation = projector_rebuilds.generation + 1",
  );
}

/** The generation as text (a bigint): 0 for read models never rebuilt. */
export async function readRebuildGeneration(sql: Sql): Promise<string> {
  const [row] = await sql.execute<{ generation: string }>("SELECT coalesce(max(generation), 0)::text AS generation FROM projector_rebuilds");
  return row.generation;
}
