// Agents' releases, evaluations' standings and pooled pass rates in the read models (reference-
// platform §1 #39-41, §7 item 15), built through the domain's commands. Shared by
// agentStandings.test.ts (memory event store, PGlite read models) and agentStandings.int.test.ts
// (PostgreSQL event store and read models).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEvaluation as create, type EventStore } from "@verdict/domain";
import { createProjector } from "../projector.js";
import { readModelChecksum } from "../db/checksum.js";
import { ormDatabase } from "../db/sql.js";
import { ReadModels } from "../readModels/readModels.js";
import { resetReadModels, type OrmReadModels } from "./testReadModels.js";
import {
  beginRun, commandDeps, completeRun, createEvaluation, evaluationCommand, failRun, GPT, importFinishedReport, recordPair, recordRelease, type Deps, type Outcome,
} from "./runFixture.js";

const D1 = "0123456789ab";
const D2 = "ba9876543210";
const KEYS = ["a", "b"];

export interface StandingsSetup {
  read: OrmReadModels;
  /** A fresh, empty event store for a test. */
  store(): Promise<EventStore>;
  close(): Promise<void>;
}

export function standingCases(open: () => Promise<StandingsSetup>): void {
  let setup: StandingsSetup;
  let store: EventStore;
  let deps: Deps;
  let read: OrmReadModels;

  beforeAll(async () => {
    setup = await open();
    read = setup.read;
  }, 60_000);
  afterAll(async () => {
    await setup?.close();
  });
  beforeEach(async () => {
    await resetReadModels(read);
    store = await setup.store();
    deps = commandDeps("acme");
  });

  const catchUp = () => createProjector({ store, orm: read.orm }).catchUp();
  const standing = async (evaluationId: string, tenant = "acme") => (await read.readModels.getEvaluation(tenant, evaluationId))?.standing;
  const agent = (name = "SupportAgent", tenant = "acme") => read.readModels.getAgent(tenant, name);
  const releasesOf = (agents: string[], tenant = "acme") => read.readModels.agentReleasePages(tenant, agents);

  /** The read models over the same database, each statement they run pushed onto `statements`. */
  function countingStatements(statements: string[]): ReadModels {
    const inner = read.sql;
    return new ReadModels({
      sql: () => {
        const sql = inner.sql();
        return { ...sql, execute: (query: string, params?: unknown[]) => (statements.push(query), sql.execute(query, params)) } as typeof sql;
      },
      transaction: (work) => inner.transaction(work),
    });
  }

  /** A run of `evaluationId` over KEYS on one model, every pair scored as `outcomes` says, then completed. */
  async function finishedRun(evaluationId: string, runId: string, outcomes: Outcome[], d = deps) {
    const run = await beginRun(store, d, evaluationId, runId, [GPT]);
    for (const [i, key] of KEYS.entries()) await recordPair(store, d, run, key, GPT.label, outcomes[i]);
    await completeRun(store, d, runId, KEYS.map((key, i) => ({ scenario_key: key, model_label: GPT.label, pass: outcomes[i] === "passed" })));
  }

  async function evaluationOf(evaluationId: string, agentName: string, d = deps) {
    await create(store, { evaluation_id: evaluationId, tenant: d.context.tenant, agent: agentName, name: `Eval ${evaluationId}`, scenarios: KEYS.map((k) => ({ key: k, prompt: `Prompt ${k}` })) }, d);
  }

  describe("agent releases", () => {
    it("keeps every version as first recorded and the latest, which a return to an earlier digest moves back", async () => {
      await recordRelease(store, deps, D1, "SupportAgent", "r1");
      await recordRelease(store, deps, D2, "SupportAgent", "r2");
      await catchUp();
      expect((await agent())?.latestRelease).toMatchObject({ version: 2, label: "v2", digest: D2, revision: "r2" });
      const since = (await agent())?.latestSince;
      await recordRelease(store, deps, D1, "SupportAgent", "ignored");
      await catchUp();
      const back = await agent();
      expect(back?.latestRelease).toMatchObject({ version: 1, label: "v1", digest: D1, revision: "r1" });
      expect(String(back?.latestSince) > String(since)).toBe(true);
      const page = (await releasesOf(["SupportAgent"])).get("SupportAgent")!;
      const releases = page.edges.map((edge) => edge.node);
      expect(releases.map((r) => [r.version, r.label, r.digest, r.revision])).toEqual([[2, "v2", D2, "r2"], [1, "v1", D1, "r1"]]);
      expect(releases[1].recordedAt).toMatch(/^2026-11-30T12:00:\d\d\.000Z$/);
      expect(releases[1].recordedAt < releases[0].recordedAt).toBe(true);
      expect([page.totalCount, page.pageInfo.hasNextPage]).toEqual([2, false]);
    });

    it("pages agents by name and releases newest first, each page one statement whatever it holds", async () => {
      for (let i = 0; i < 30; i++) {
        const name = `Agent${String(i).padStart(2, "0")}`;
        await recordRelease(store, deps, D1, name, "r1");
        await recordRelease(store, deps, D2, name, "r2");
      }
      await evaluationOf("e1", "Agent00");
      await finishedRun("e1", "r1", ["passed", "failed"]);
      await catchUp();
      const statements: string[] = [];
      const counted = countingStatements(statements);
      const first = await counted.listAgents("acme", { first: 25 });
      expect(statements).toHaveLength(1);
      expect(first.edges.map((edge) => edge.node.name)).toEqual(Array.from({ length: 25 }, (_, i) => `Agent${String(i).padStart(2, "0")}`));
      expect([first.totalCount, first.pageInfo.hasNextPage]).toEqual([30, true]);
      expect(first.edges[0].node).toMatchObject({ latestRelease: { version: 2, label: "v2", digest: D2, revision: "r2" }, standings: { current: 1 }, pooledPassRate: 50 });
      const rest = await counted.listAgents("acme", { first: 25, after: first.pageInfo.endCursor });
      expect(rest.edges.map((edge) => edge.node.name)).toEqual(["Agent25", "Agent26", "Agent27", "Agent28", "Agent29"]);
      expect([rest.totalCount, rest.pageInfo.hasNextPage]).toEqual([30, false]);
      const none = await counted.listAgents("acme", { after: rest.pageInfo.endCursor });
      expect([none.edges, none.totalCount]).toEqual([[], 30]);
      expect(statements).toHaveLength(3);
      // Every agent's releases of a page, in one statement.
      statements.length = 0;
      const pages = await counted.agentReleasePages("acme", first.edges.map((edge) => edge.node.name), { first: 1 });
      expect(statements).toHaveLength(1);
      expect([...pages.values()].map((p) => [p.edges.map((edge) => edge.node.version), p.totalCount, p.pageInfo.hasNextPage])).toEqual(Array(25).fill([[2], 2, true]));
      const older = await counted.agentReleasePages("acme", ["Agent03"], { after: pages.get("Agent03")!.pageInfo.endCursor });
      expect(older.get("Agent03")!.edges.map((edge) => edge.node.version)).toEqual([1]);
      // A cursor of another agent's releases, or of the agents, is not one of these.
      await expect(counted.agentReleasePages("acme", ["Agent04"], { after: pages.get("Agent03")!.pageInfo.endCursor })).rejects.toThrow("after is not a cursor this list gave out");
      await expect(counted.listAgents("acme", { after: pages.get("Agent03")!.pageInfo.endCursor })).rejects.toThrow("after is not a cursor this list gave out");
      // Another tenant's agent of the name has no releases here.
      expect((await counted.agentReleasePages("globex", ["Agent03"])).get("Agent03")).toMatchObject({ edges: [], totalCount: 0 });
    });

    it("lists the agents its evaluations or releases name, in name order; none of another tenant's", async () => {
      await createEvaluation(store, deps, "e1", KEYS);
      await recordRelease(store, deps, D1, "BillingAgent");
      const globex = commandDeps("globex");
      await evaluationOf("g1", "GlobexOnly", globex);
      await recordRelease(store, globex, D2, "SupportAgent");
      await catchUp();
      const agents = (await read.readModels.listAgents("acme")).edges.map((edge) => edge.node);
      expect(agents.map((a) => [a.name, a.latestRelease?.label ?? null])).toEqual([["BillingAgent", "v1"], ["SupportAgent", null]]);
      expect(await read.readModels.getAgent("acme", "GlobexOnly")).toBeNull();
      expect((await releasesOf(["SupportAgent"])).get("SupportAgent")).toMatchObject({ edges: [], totalCount: 0 });
      expect((await read.readModels.getAgent("globex", "SupportAgent"))?.latestRelease).toMatchObject({ version: 1, digest: D2 });
    });
  });

  describe("standing", () => {
    it("goes none -> unrecorded -> current -> stale -> current -> archived, as its headline run and the agent's releases move", async () => {
      await createEvaluation(store, deps, "e1", KEYS);
      await catchUp();
      expect(await standing("e1")).toBe("none");
      // A run before any release pinned none: unrecorded, and a release recorded later does not change that.
      await finishedRun("e1", "r1", ["passed", "failed"]);
      await catchUp();
      expect(await standing("e1")).toBe("unrecorded");
      await recordRelease(store, deps, D1);
      await catchUp();
      expect(await standing("e1")).toBe("unrecorded");
      // A run on v1: current.
      await finishedRun("e1", "r2", ["passed", "passed"]);
      await catchUp();
      expect((await read.readModels.getRun("acme", "r2"))?.release).toEqual({ digest: D1, revision: null, label: "v1" });
      expect(await read.readModels.getEvaluation("acme", "e1")).toMatchObject({ standing: "current", headlineRunId: "r2", headlineRunNumber: 2 });
      // A new release: the headline scored v1, the agent runs v2.
      await recordRelease(store, deps, D2);
      await catchUp();
      expect(await standing("e1")).toBe("stale");
      // A run on v2 that fails or has not completed does not head the evaluation.
      await beginRun(store, deps, "e1", "r3", [GPT]);
      await failRun(store, deps, "r3", "boom");
      await beginRun(store, deps, "e1", "r4", [GPT]);
      await catchUp();
      expect(await read.readModels.getEvaluation("acme", "e1")).toMatchObject({ standing: "stale", headlineRunId: "r2" });
      await finishedRun("e1", "r5", ["passed", "failed"]);
      await catchUp();
      expect(await read.readModels.getEvaluation("acme", "e1")).toMatchObject({ standing: "current", headlineRunId: "r5" });
      await evaluationCommand(store, deps, "e1", { type: "ArchiveEvaluation", archived: true });
      await catchUp();
      expect(await standing("e1")).toBe("archived");
      await evaluationCommand(store, deps, "e1", { type: "ArchiveEvaluation", archived: false });
      await catchUp();
      expect(await standing("e1")).toBe("current");
    });

    it("is current when the agent has no recorded release, whatever the run pinned; headline is the highest-numbered completed run", async () => {
      await createEvaluation(store, deps, "e1", KEYS);
      const explicit = (runId: string) => ({ run_id: runId, evaluation_id: "e1", models: [GPT], release: { digest: "host-release-7", label: "7" } });
      const { startRun } = await import("@verdict/domain");
      const first = (await startRun(store, explicit("r1"), deps)).run.state;
      const second = (await startRun(store, explicit("r2"), deps)).run.state;
      for (const key of KEYS) await recordPair(store, deps, second, key, GPT.label, "passed");
      await completeRun(store, deps, "r2", KEYS.map((k) => ({ scenario_key: k, model_label: GPT.label, pass: true })));
      for (const key of KEYS) await recordPair(store, deps, first, key, GPT.label, "failed");
      await completeRun(store, deps, "r1", KEYS.map((k) => ({ scenario_key: k, model_label: GPT.label, pass: false })));
      await catchUp();
      // r1 completed last, but r2 is newer: it heads.
      expect(await read.readModels.getEvaluation("acme", "e1")).toMatchObject({ standing: "current", headlineRunId: "r2" });
      expect((await read.readModels.getRun("acme", "r2"))?.release).toEqual({ digest: "host-release-7", revision: null, label: "7" });
      await recordRelease(store, deps, D1);
      await catchUp();
      expect(await standing("e1")).toBe("stale");
    });

    it("reads an imported run's release from its report: a digest text pins it, a blank or missing one is unrecorded", async () => {
      await createEvaluation(store, deps, "e1", KEYS);
      await createEvaluation(store, deps, "e2", KEYS);
      await recordRelease(store, deps, D1);
      const report = (release: unknown) => ({
        models: { [GPT.label]: { provider: "openai", model: GPT.model } }, release,
        results: KEYS.map((k) => ({ scenario_key: k, label: GPT.label, status: "passed", score: 1 })),
      });
      const one = await importFinishedReport(store, deps, "e1", "nightly-1", report({ digest: D1, revision: "abc", label: "v1" }));
      const two = await importFinishedReport(store, deps, "e2", "nightly-2", report({ digest: " ", label: "v9" }));
      await catchUp();
      expect((await read.readModels.getRun("acme", one.run.state.runId!))?.release).toEqual({ digest: D1, revision: "abc", label: "v1" });
      expect((await read.readModels.getRun("acme", two.run.state.runId!))?.release).toBeNull();
      expect(await standing("e1")).toBe("current");
      expect(await standing("e2")).toBe("unrecorded");
    });

    it("reads only the evaluation's own tenant's agent", async () => {
      const globex = commandDeps("globex");
      await createEvaluation(store, deps, "e1", KEYS);
      await evaluationOf("g1", "SupportAgent", globex);
      await recordRelease(store, deps, D1);
      await finishedRun("e1", "r1", ["passed", "passed"]);
      await finishedRun("g1", "g-r1", ["passed", "passed"], globex);
      await recordRelease(store, globex, D2);
      await catchUp();
      // acme's run pinned acme's v1; globex's new release is not acme's.
      expect(await standing("e1")).toBe("current");
      // globex's run started before globex recorded any release.
      expect(await standing("g1", "globex")).toBe("unrecorded");
      expect(await standing("g1")).toBeUndefined();
    });
  });

  describe("pooled pass rate", () => {
    it("pools the headline runs of current and unrecorded evaluations only", async () => {
      for (const id of ["current", "unrecorded", "stale", "archived", "none"]) await evaluationOf(id, "SupportAgent");
      await evaluationOf("other-agent", "BillingAgent");
      await finishedRun("unrecorded", "u1", ["passed", "errored"]); // before any release: 1 of 2
      await recordRelease(store, deps, D1);
      await finishedRun("stale", "s1", ["passed", "passed"]); // on v1, then v2 is recorded
      await finishedRun("archived", "a1", ["passed", "passed"]);
      await evaluationCommand(store, deps, "archived", { type: "ArchiveEvaluation", archived: true });
      await recordRelease(store, deps, D2);
      await finishedRun("current", "c1", ["failed", "failed"]); // on v2: 0 of 2
      await finishedRun("current", "c2", ["passed", "failed"]); // its headline now: 1 of 2
      await finishedRun("other-agent", "o1", ["passed", "passed"]);
      await catchUp();
      const pooled = await agent();
      expect(pooled).toMatchObject({
        name: "SupportAgent",
        latestRelease: { version: 2, digest: D2 },
        standings: { current: 1, unrecorded: 1, stale: 1, archived: 1, none: 1 },
        evaluationsCounted: 2,
        evaluationsLeftOut: 3,
        pooledPassed: 2,
        pooledScored: 4,
        pooledPassRate: 50,
      });
      // 2 of 3: one decimal, half away from zero.
      await finishedRun("unrecorded", "u2", ["passed", "passed"]);
      await recordRelease(store, deps, D1); // back to v1: "current" goes stale, "stale" is current again
      await catchUp();
      expect(await agent()).toMatchObject({
        standings: { current: 1, unrecorded: 0, stale: 2, archived: 1, none: 1 }, evaluationsCounted: 1, pooledPassed: 2, pooledScored: 2, pooledPassRate: 100,
      });
      expect(await standing("unrecorded")).toBe("stale"); // u2 pinned v2
      expect((await agent("BillingAgent"))?.pooledPassRate).toBe(100);
    });

    it("is null with nothing counted, and rounds a third to one decimal", async () => {
      await evaluationOf("e1", "SupportAgent");
      await catchUp();
      expect(await agent()).toMatchObject({ pooledPassRate: null, pooledScored: 0, evaluationsCounted: 0, evaluationsLeftOut: 1 });
      await create(store, { evaluation_id: "e3", tenant: "acme", agent: "SupportAgent", name: "Three", scenarios: ["a", "b", "c"].map((k) => ({ key: k, prompt: k })) }, deps);
      const run = await beginRun(store, deps, "e3", "t1", [GPT]);
      for (const [key, outcome] of [["a", "passed"], ["b", "failed"], ["c", "failed"]] as const) await recordPair(store, deps, run, key, GPT.label, outcome);
      await completeRun(store, deps, "t1", ["a", "b", "c"].map((k) => ({ scenario_key: k, model_label: GPT.label, pass: k === "a" })));
      await catchUp();
      expect(await agent()).toMatchObject({ pooledPassed: 1, pooledScored: 3, pooledPassRate: 33.3 });
    });
  });

  describe("rebuild", () => {
    it("gives the same rows, agents and headlines included", async () => {
      await evaluationOf("e1", "SupportAgent");
      await finishedRun("e1", "r1", ["passed", "failed"]);
      await recordRelease(store, deps, D1, "SupportAgent", "r1");
      await finishedRun("e1", "r2", ["passed", "passed"]);
      await recordRelease(store, deps, D2);
      await recordRelease(store, deps, D1);
      await recordRelease(store, commandDeps("globex"), D2);
      const projector = createProjector({ store, orm: read.orm });
      await projector.catchUp();
      const live = await readModelChecksum(ormDatabase(read.orm));
      const answers = [await read.readModels.listAgents("acme"), await read.readModels.getEvaluation("acme", "e1")];
      expect(live.agents.rows).toBe(2);
      expect(live.agent_releases.rows).toBe(3);
      await projector.rebuild();
      expect(await readModelChecksum(ormDatabase(read.orm))).toEqual(live);
      expect([await read.readModels.listAgents("acme"), await read.readModels.getEvaluation("acme", "e1")]).toEqual(answers);
    });
  });
}
