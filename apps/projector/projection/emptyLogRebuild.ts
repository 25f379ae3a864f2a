// `projector rebuild` from an empty event log empties the read models. Pointed by mistake at an
// empty database beside a live install's read database (DATABASE_URL=…/other,
// VERDICT_READ_DATABASE_URL=…/main), it did just that, exit 0 `{"rebuilt": 0}`: the API then
// answered NOT_FOUND for everything. It is refused when the read models hold anything; an empty
// log into empty read models (a fresh install) changes nothing and still runs.
import type { Sql } from "../db/sql.js";
import { READ_MODEL_TABLES } from "../db/tables.js";

export class RebuildFromEmptyLogError extends Error {
  constructor() {
    super(
      "the event log (DATABASE_URL, or VERDICT_HOME when it is unset) is empty, and the read database holds read models: " +
        "rebuilding them from an empty log would empty them, so nothing was changed. Point DATABASE_URL at the log they were projected from " +
        "(an empty log is likely the wrong database)",
    );
    this.name = "RebuildFromEmptyLogError";
  }
}

/** Whether any read model, checkpoint or recorded rejection holds a row. */
export async function readModelsHoldRows(sql: Sql): Promise<boolean> {
  const tables = [...READ_MODEL_TABLES.map((t) => t.name), "projector_checkpoints", "projector_rejections"];
  const [row] = await sql.execute<{ held: boolean }>(`SELECT (${tables.map((t) => `EXISTS (SELECT 1 FROM ${t})`).join(" OR ")}) AS held`);
  return row.held;
}
