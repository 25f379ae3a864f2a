// An API on PostgreSQL beside a projector that rebuilds the read models (projection version 2's
// upgrade, which fills runs.host_run_id): what the API kept about a finished run, read before
// or while the rebuild ran, is read again once the rebuild has committed, without a restart. It
// had answered hostRunId null until the API restarted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createPostgresEventStore } from "@verdict/infra";
import { createProjector, type ProjectionState } from "@verdict/projector";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { collect, startPlatform, type Platform } from "./testing/harness.js";
import { asVersionOne, createImportsEvaluation, HOST_RUN_ID, hostRunIdOf, importRun } from "./testing/rebuiltRuns.js";

let db: TestDatabase;
let p: Platform;
let evaluationId: string;

beforeAll(async () => {
  db = await createTestDatabase("verdict_api_rebuilt");
  p = await startPlatform({ store: await createPostgresEventStore({ connectionString: db.url }), readUrl: db.url });
  evaluationId = await createImportsEvaluation(p);
}, 60_000);

afterAll(async () => {
  await p?.close();
  await db?.drop();
});

/** The upgraded projector (another process, its own connections), as `npm run projector` starts it. */
const upgradedProjector = (onStaleProjection?: (state: ProjectionState) => void) =>
  createProjector({ store: p.store, database: p.read.sql, onStaleProjection });

/** What a client reads within 3 s (the API asks for the rebuild generation once a second at most). */
const eventually = (runId: string) => expect.poll(() => hostRunIdOf(p, runId), { timeout: 3_000, interval: 50 });

describe("a finished run the API read before the read models were rebuilt", () => {
  it("answers the rebuilt row after the upgrade's rebuild commits, over HTTP and graphql-ws alike", async () => {
    const runId = await importRun(p, evaluationId, "nightly-1");
    await asVersionOne(p);
    expect(await hostRunIdOf(p, runId)).toBeNull();
    expect(await hostRunIdOf(p, runId)).toBeNull(); // kept: whole, and field by field
    const told: ProjectionState[] = [];
    await upgradedProjector((state) => told.push(state)).catchUp();
    expect(told).toEqual([{ stored: 1, stale: true }]);
    await eventually(runId).toBe("nightly-1");
    const [overWs] = await collect<any>(p.wsClient(p.keys.acmeRead), HOST_RUN_ID, { r: runId });
    expect(overWs.run).toEqual({ status: "COMPLETED", hostRunId: "nightly-1" });
  });

  it("read while the rebuild runs (begun, not yet committed), answers the rebuilt row once it commits", async () => {
    const runId = await importRun(p, evaluationId, "nightly-2");
    await asVersionOne(p);
    // Holds the rebuild inside its transaction: it waits on this lock before truncating.
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    let rebuilding!: Promise<number>;
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT pg_advisory_xact_lock(hashtext('verdict_projector_rebuild:read-models'))");
      let told = false;
      rebuilding = upgradedProjector(() => void (told = true)).catchUp();
      await expect.poll(async () => told && (await waitingOnAdvisoryLock(holder)), { timeout: 5_000 }).toBe(true);
      expect(await hostRunIdOf(p, runId)).toBeNull(); // the rows as they were: the rebuild has not committed
      expect(await hostRunIdOf(p, runId)).toBeNull();
      await holder.query("COMMIT");
    } finally {
      await holder.end();
    }
    expect(await rebuilding).toBeGreaterThan(0);
    await eventually(runId).toBe("nightly-2");
  });
});

async function waitingOnAdvisoryLock(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
  return rows[0].n > 0;
}
