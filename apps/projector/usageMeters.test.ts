// usage_meters sums UsageMetered per tenant, month and kind; a rebuild gives the same rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toEventsToAppend, usageStream } from "@verdict/domain";
import { createMemoryEventStore } from "@verdict/infra";
import { createProjector } from "./projector.js";
import { openTestReadModels, type OrmReadModels } from "./testing/testReadModels.js";
import { beginRun, commandDeps, createEvaluation, GPT, CLAUDE, importFinishedReport } from "./testing/runFixture.js";
import { readModelChecksum } from "./db/checksum.js";

let read: OrmReadModels;
beforeAll(async () => {
  read = await openTestReadModels();
});
afterAll(async () => {
  await read?.close();
});

const REPORT = { models: { [GPT.label]: { provider: "openai", model: GPT.model } }, results: [{ scenario_key: "a", label: GPT.label, status: "passed" }] };

describe("usage_meters", () => {
  it("sums each tenant's executions (pairs) and imported reports for the month, never another tenant's; a rebuild gives the same rows", async () => {
    const store = createMemoryEventStore();
    const acme = commandDeps("acme");
    const globex = commandDeps("globex");
    await createEvaluation(store, acme, "um1", ["a", "b", "c"]);
    await createEvaluation(store, globex, "um2", ["a"]);
    await beginRun(store, acme, "um1", "um-r1", [GPT, CLAUDE]); // 3 x 2
    await beginRun(store, acme, "um1", "um-r2", [GPT]); // 3 x 1
    await importFinishedReport(store, acme, "um1", "host-1", REPORT);
    await importFinishedReport(store, acme, "um1", "host-1", REPORT); // a duplicate: metered once
    await beginRun(store, globex, "um2", "um-r3", [GPT]);
    const projector = createProjector({ store, orm: read.orm, name: "usage" });
    await projector.catchUp();
    expect(await read.readModels.usageMeters("acme", "2026-11")).toEqual({ month: "2026-11", executions: 9, reports: 1 });
    expect(await read.readModels.usageMeters("globex", "2026-11")).toEqual({ month: "2026-11", executions: 1, reports: 0 });
    expect(await read.readModels.usageMeters("acme", "2026-12")).toEqual({ month: "2026-12", executions: 0, reports: 0 });
    expect(await read.readModels.usageMeters("initech", "2026-11")).toEqual({ month: "2026-11", executions: 0, reports: 0 });
    const before = await readModelChecksum(read.sql);
    await projector.rebuild();
    expect(await readModelChecksum(read.sql)).toEqual(before);
  });

  it("counts a meter for the tenant its event names (its stream's), not the tenant of whoever appended it", async () => {
    const store = createMemoryEventStore();
    const data = { tenant: "acme", kind: "execution" as const, quantity: 4, run_id: "um-x1", evaluation_id: "um-x", month: "2026-10" };
    await store.append(usageStream("acme", "2026-10"), toEventsToAppend([{ type: "UsageMetered", data }], { tenant: "operator", actor: "ops" }, commandDeps("operator")));
    await createProjector({ store, orm: read.orm, name: "usage-tenant" }).catchUp();
    expect(await read.readModels.usageMeters("acme", "2026-10")).toEqual({ month: "2026-10", executions: 4, reports: 0 });
    expect(await read.readModels.usageMeters("operator", "2026-10")).toEqual({ month: "2026-10", executions: 0, reports: 0 });
  });
});
