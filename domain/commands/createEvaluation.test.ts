import { beforeEach, describe, expect, it } from "vitest";
import { createEvaluation } from "./createEvaluation.js";
import { InMemoryEventStore } from "./testing/inMemoryEventStore.js";
import { fixedClock, sequentialIds } from "./testing/fixed.js";
import { scenario } from "./testing/fixtures.js";
import { evaluationNameStream } from "../events/streams.js";
import { toEventsToAppend } from "../events/toAppend.js";

let store: InMemoryEventStore;
const deps = (tenant = "acme") => ({ clock: fixedClock(), ids: sequentialIds(), context: { tenant, actor: "user-1" } });
const create = (evaluationId: string, extra: Record<string, unknown> = {}) => ({
  type: "CreateEvaluation", evaluation_id: evaluationId, tenant: "acme", agent: "SupportAgent", name: "Support", scenarios: [scenario("a")], ...extra,
});
const NAME = evaluationNameStream("acme", "SupportAgent", "Support");
const typesIn = async (streamId: string) => (await store.readStream(streamId)).map((e) => e.type);

beforeEach(() => {
  store = new InMemoryEventStore();
});

describe("createEvaluation: the name is unique per (tenant, agent)", () => {
  it("given a fresh name, reserves it, then creates the evaluation", async () => {
    const created = await createEvaluation(store, create("e1"), deps());
    expect(store.log.map((e) => [e.streamId, e.type])).toEqual([
      [NAME, "EvaluationNameReserved"],
      ["evaluation-e1", "EvaluationCreated"],
      ["evaluation-e1", "ScenariosReplaced"],
    ]);
    expect(store.log[0].data).toEqual({ evaluation_id: "e1", tenant: "acme", agent: "SupportAgent", name: "Support", reserved_at: "2026-11-30T12:00:00.000Z" });
    expect(created.evaluation.state.name).toBe("Support");
    expect(created.evaluation.position).toEqual(store.log.at(-1)!.position);
    expect(created.name.state.evaluationId).toBe("e1");
  });

  it("lets another agent, and another tenant, use the same name", async () => {
    await createEvaluation(store, create("e1"), deps());
    await createEvaluation(store, create("e2", { agent: "BillingAgent" }), deps());
    await createEvaluation(store, create("g1", { tenant: "globex" }), deps("globex"));
    expect(await typesIn("evaluation-e2")).toEqual(["EvaluationCreated", "ScenariosReplaced"]);
    expect(await typesIn("evaluation-g1")).toEqual(["EvaluationCreated", "ScenariosReplaced"]);
    const streams = [NAME, evaluationNameStream("acme", "BillingAgent", "Support"), evaluationNameStream("globex", "SupportAgent", "Support")];
    expect(new Set(streams).size).toBe(3);
    for (const streamId of streams) expect(await typesIn(streamId)).toEqual(["EvaluationNameReserved"]);
  });

  it("refuses a name another evaluation of the agent holds with a CONFLICT naming `name`, writing nothing", async () => {
    await createEvaluation(store, create("e1"), deps());
    const before = store.log.length;
    await expect(createEvaluation(store, create("e2"), deps())).rejects.toThrow(
      expect.objectContaining({ code: "conflict", field: "name", message: 'name: an evaluation named "Support" already exists for agent "SupportAgent"' }),
    );
    expect(store.log).toHaveLength(before);
    expect(await typesIn("evaluation-e2")).toEqual([]);
    expect((await store.readStream(NAME)).map((e) => e.data.evaluation_id)).toEqual(["e1"]);
  });

  it("compares the name as stored: surrounding spaces are trimmed, case is kept", async () => {
    await createEvaluation(store, create("e1"), deps());
    await expect(createEvaluation(store, create("e2", { name: "  Support " }), deps())).rejects.toThrow(expect.objectContaining({ field: "name" }));
    await createEvaluation(store, create("e3", { name: "support" }), deps());
    expect(await typesIn("evaluation-e3")).toEqual(["EvaluationCreated", "ScenariosReplaced"]);
  });

  it("finishes a retry whose reservation was written but whose evaluation was not (a process died in between)", async () => {
    const reserved = { type: "EvaluationNameReserved" as const, data: { evaluation_id: "e1", tenant: "acme", agent: "SupportAgent", name: "Support" } };
    store.appendNow(NAME, toEventsToAppend([reserved], { tenant: "acme", actor: "user-1" }, { clock: fixedClock(), ids: sequentialIds("crashed-") }), "noStream");
    const created = await createEvaluation(store, create("e1"), deps());
    expect(created.name.events).toEqual([]);
    expect(await typesIn("evaluation-e1")).toEqual(["EvaluationCreated", "ScenariosReplaced"]);
    expect(await typesIn(NAME)).toEqual(["EvaluationNameReserved"]);
  });

  it("answers a retry of a finished create as before: the evaluation id exists, nothing more is written", async () => {
    await createEvaluation(store, create("e1"), deps());
    const before = store.log.length;
    await expect(createEvaluation(store, create("e1"), deps())).rejects.toThrow(expect.objectContaining({ code: "conflict", field: "evaluation_id" }));
    expect(store.log).toHaveLength(before);
  });

  it("refuses an input the evaluation refuses before reserving the name", async () => {
    await expect(createEvaluation(store, create("e1", { criteria: [{ key: "x", type: "vibes" }] }), deps())).rejects.toThrow(
      expect.objectContaining({ code: "validation", field: "criteria[0].type" }),
    );
    await expect(createEvaluation(store, create("e1", { name: "" }), deps())).rejects.toThrow(expect.objectContaining({ code: "validation", field: "name" }));
    expect(store.log).toHaveLength(0);
  });

  it("loses a race for the name to another evaluation: decided again, a conflict, nothing written", async () => {
    const winner = { type: "EvaluationNameReserved" as const, data: { evaluation_id: "e9", tenant: "acme", agent: "SupportAgent", name: "Support", reserved_at: "2026-11-30T12:00:00.000Z" } };
    store.interleave(() => store.appendNow(NAME, toEventsToAppend([winner], { tenant: "acme", actor: "racer" }, { clock: fixedClock(), ids: sequentialIds("racer-") })));
    await expect(createEvaluation(store, create("e1"), deps())).rejects.toThrow(expect.objectContaining({ code: "conflict", field: "name" }));
    expect(store.log.map((e) => e.type)).toEqual(["EvaluationNameReserved"]);
    expect(await typesIn("evaluation-e1")).toEqual([]);
  });
});

describe("createEvaluation: a reservation whose evaluation was never recorded", () => {
  /** A reservation for `holder` written at `reservedAt` (null: by a build that did not record it), with no evaluation behind it. */
  const orphan = (holder: string, reservedAt: string | null) => {
    const reserved = { type: "EvaluationNameReserved" as const, data: { evaluation_id: holder, tenant: "acme", agent: "SupportAgent", name: "Support", reserved_at: reservedAt } };
    store.appendNow(NAME, toEventsToAppend([reserved], { tenant: "acme", actor: "user-1" }, { clock: fixedClock(), ids: sequentialIds("crashed-") }), "noStream");
  };
  const at = (iso: string) => ({ ...deps(), clock: fixedClock(iso) });

  it("refuses the name while the reservation is young, saying when it frees", async () => {
    orphan("e1", "2026-11-30T12:00:00.000Z");
    await expect(createEvaluation(store, create("e2"), at("2026-11-30T12:04:59.000Z"))).rejects.toThrow(
      expect.objectContaining({
        code: "conflict",
        field: "name",
        message: 'name: an evaluation named "Support" already exists for agent "SupportAgent" (its creation has not finished; if it failed, the name is free again at 2026-11-30T12:05:00.000Z)',
      }),
    );
    expect(await typesIn("evaluation-e2")).toEqual([]);
  });

  it("gives the name to another evaluation once the reservation is five minutes old", async () => {
    orphan("e1", "2026-11-30T12:00:00.000Z");
    const created = await createEvaluation(store, create("e2"), at("2026-11-30T12:05:00.000Z"));
    expect(created.name.state).toEqual({ evaluationId: "e2", reservedAt: "2026-11-30T12:05:00.000Z" });
    expect((await store.readStream(NAME)).map((e) => e.data.evaluation_id)).toEqual(["e1", "e2"]);
    expect(await typesIn("evaluation-e2")).toEqual(["EvaluationCreated", "ScenariosReplaced"]);
    // The name is e2's now: the first creation retried is refused, as any other would be.
    await expect(createEvaluation(store, create("e1"), at("2026-11-30T12:06:00.000Z"))).rejects.toThrow(expect.objectContaining({ code: "conflict", field: "name" }));
    expect(await typesIn("evaluation-e1")).toEqual([]);
  });

  it("gives up at once on one recorded before reservations kept their time", async () => {
    orphan("e1", null);
    await createEvaluation(store, create("e2"), deps());
    expect(await typesIn("evaluation-e2")).toEqual(["EvaluationCreated", "ScenariosReplaced"]);
  });

  it("never takes the name of an evaluation that was recorded, however old", async () => {
    await createEvaluation(store, create("e1"), deps());
    await expect(createEvaluation(store, create("e2"), at("2027-06-01T00:00:00.000Z"))).rejects.toThrow(
      expect.objectContaining({ code: "conflict", field: "name", message: 'name: an evaluation named "Support" already exists for agent "SupportAgent"' }),
    );
  });

  it("lets one of two takeovers racing for the name win", async () => {
    orphan("e1", null);
    const racer = { type: "EvaluationNameReserved" as const, data: { evaluation_id: "e9", tenant: "acme", agent: "SupportAgent", name: "Support", reserved_at: "2026-11-30T12:00:00.000Z" } };
    store.interleave(() => store.appendNow(NAME, toEventsToAppend([racer], { tenant: "acme", actor: "racer" }, { clock: fixedClock(), ids: sequentialIds("racer-") }), 0n));
    await expect(createEvaluation(store, create("e2"), deps())).rejects.toThrow(expect.objectContaining({ code: "conflict", field: "name" }));
    expect((await store.readStream(NAME)).map((e) => e.data.evaluation_id)).toEqual(["e1", "e9"]);
    expect(await typesIn("evaluation-e2")).toEqual([]);
  });
});
