// A rebuild raises the read models' rebuild generation (projector_rebuilds, migration 009), and
// ReadModels' cache of finished runs, which takes a run's rows as final once it ended, drops what
// it kept when it reads a new one: after the version-2 upgrade's rebuild an imported run answers
// its host's run_id, not the null it was read with before.
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryEventStore, createPgliteEventStore } from "@verdict/infra";
import { importedRunId, type EventStore } from "@verdict/domain";
import { createProjector, type Projector } from "./projector.js";
import { readRebuildGeneration } from "./projection/rebuildGeneration.js";
import { ReadModels } from "./readModels/readModels.js";
import type { OrmReadModels } from "./testing/testReadModels.js";
import { useTestReadModels } from "./testing/useTestReadModels.js";
import { commandDeps, createEvaluation, GPT, importFinishedReport, type Deps } from "./testing/runFixture.js";

let read: OrmReadModels;
let store: EventStore;
let deps: Deps;

const readModels = useTestReadModels();
beforeEach(() => {
  read = readModels();
  store = createMemoryEventStore();
  deps = commandDeps("acme");
});

const projectorOf = (extra: Partial<Parameters<typeof createProjector>[0]> = {}): Projector =>
  createProjector({ store, database: read.sql, batchSize: 2, retryDelayMs: 10, ...extra });
const exec = (statement: string) => read.sql.sql().execute(statement);
const generation = () => readRebuildGeneration(read.sql.sql());
const report = { models: { [GPT.label]: { provider: "openai", model: GPT.model } }, results: [{ scenario_key: "a", label: GPT.label, status: "passed", score: 1 }] };

/** An imported run, projected: a finished run whose host_run_id projection version 2 fills. */
async function importedRun(): Promise<string> {
  await createEvaluation(store, deps, "e1", ["a"]);
  await importFinishedReport(store, deps, "e1", "nightly-42", report);
  await projectorOf().catchUp();
  return importedRunId("acme", "nightly-42");
}

/** What migration 008 left in a read database projection version 1 made: the column null. */
async function asVersionOne(): Promise<void> {
  await exec("UPDATE runs SET host_run_id = NULL");
  await exec("UPDATE projector_checkpoints SET projection_version = 1");
}

describe("the rebuild generation", () => {
  it("is raised by each rebuild, explicit or of stale read models, and by nothing else", async () => {
    const before = Number(await generation());
    await importedRun();
    expect(Number(await generation())).toBe(before); // projecting from the log's start is no rebuild
    await projectorOf().rebuild();
    expect(Number(await generation())).toBe(before + 1);
    await asVersionOne();
    await projectorOf().catchUp();
    expect(Number(await generation())).toBe(before + 2);
    await projectorOf().catchUp(); // current: nothing rebuilt
    expect(Number(await generation())).toBe(before + 2);
  });

  it("is raised at the truncation and again once the log is applied, where the rebuild goes batch by batch (the embedded home)", async () => {
    const pglite = read.database.pglite!;
    const shared = await createPgliteEventStore({ db: pglite, soleWriter: true });
    try {
      await pglite.exec("TRUNCATE messages, streams");
      store = shared;
      await importedRun();
      const before = Number(await generation());
      const during: number[] = [];
      await projectorOf({ logSharesDatabase: true }).rebuild(() => void generation().then((g) => during.push(Number(g))));
      expect(Number(await generation())).toBe(before + 2);
      expect(during[0]).toBe(before + 1); // read after the first batch: raised with the truncation
    } finally {
      await shared.close();
    }
  });
});

describe("ReadModels' finished runs", () => {
  it("are read again once a rebuild is noticed: the version-2 upgrade's host_run_id, not the null read before it", async () => {
    const runId = await importedRun();
    await asVersionOne();
    const models = new ReadModels(read.sql, { rebuildCheckMs: 0 });
    expect((await models.getRun("acme", runId))?.hostRunId).toBeNull();
    await exec("UPDATE runs SET origin = 'changed underneath'"); // kept: a finished run is read once
    expect((await models.getRun("acme", runId))?.hostRunId).toBeNull();
    expect((await models.listResults("acme", runId)).map((r) => r.status)).toEqual(["passed"]);
    await projectorOf().catchUp(); // the upgraded projector rebuilds
    expect(await models.getRun("acme", runId)).toMatchObject({ hostRunId: "nightly-42", origin: "imported" });
    expect((await models.listResults("acme", runId)).map((r) => r.status)).toEqual(["passed"]);
  });

  it("are read again after a rebuild that committed while the generation could not be read yet", async () => {
    const runId = await importedRun();
    await asVersionOne();
    const lines: string[] = [];
    const models = new ReadModels(read.sql, { rebuildCheckMs: 0, warn: (line) => lines.push(line) });
    await exec("ALTER TABLE projector_rebuilds RENAME TO projector_rebuilds_away"); // the generation cannot be read
    try {
      expect((await models.getRun("acme", runId))?.hostRunId).toBeNull(); // kept, no generation known
    } finally {
      await exec("ALTER TABLE projector_rebuilds_away RENAME TO projector_rebuilds");
    }
    expect(lines).toEqual([expect.stringMatching(/the rebuild generation \(projector_rebuilds\) could not be read \(.*projector_rebuilds.*\)/)]);
    await projectorOf().catchUp(); // the upgrade's rebuild raises the generation none was read of
    expect((await models.getRun("acme", runId))?.hostRunId).toBe("nightly-42");
  });

  it("are read again at most rebuildCheckMs after the rebuild committed (default 1 s)", async () => {
    const runId = await importedRun();
    await asVersionOne();
    const models = new ReadModels(read.sql);
    expect((await models.getRun("acme", runId))?.hostRunId).toBeNull();
    await projectorOf().catchUp();
    const rebuilt = Date.now();
    await expect.poll(async () => (await models.getRun("acme", runId))?.hostRunId, { timeout: 3_000, interval: 50 }).toBe("nightly-42");
    expect(Date.now() - rebuilt).toBeLessThan(1_500);
  });
});
