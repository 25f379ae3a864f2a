// A start sent with an idempotency key is one run however often it is sent (keyedRunId.ts): a
// retry, or a send racing the first, answers the first's run (same id, same number) and meters
// nothing more; the key sent with other arguments is a conflict naming the key.
import { beforeEach, describe, expect, it } from "vitest";
import { DomainError } from "../../events/domainError.js";
import { handleCommand } from "../handleCommand.js";
import { startRun } from "../twoStreamCommands.js";
import { evaluationAggregate } from "../evaluation/evaluationAggregate.js";
import { InMemoryEventStore } from "../testing/inMemoryEventStore.js";
import { fixedClock, sequentialIds } from "../testing/fixed.js";
import { CLAUDE, GPT, scenario } from "../testing/fixtures.js";
import { keyedRunId } from "./keyedRunId.js";

let store: InMemoryEventStore;
const deps = (plan?: { executionsPerMonth: number }) => ({ clock: fixedClock(), ids: sequentialIds(), context: { tenant: "acme", actor: "user-1" }, plan });
const create = { type: "CreateEvaluation", evaluation_id: "e1", tenant: "acme", agent: "SupportAgent", name: "Support", scenarios: [scenario("a"), scenario("b"), scenario("c")] };
const keyed = (key: string, extra: Record<string, unknown> = {}) => ({ run_id: keyedRunId("acme", "e1", key), evaluation_id: "e1", models: [GPT, CLAUDE], idempotency_key: key, ...extra });

const of = (type: string) => store.log.filter((e) => e.type === type);
const numberOf = (result: Awaited<ReturnType<typeof startRun>>) => result.run.state.started?.number;

beforeEach(async () => {
  store = new InMemoryEventStore();
  await handleCommand(store, evaluationAggregate, "evaluation-e1", create, deps());
});

describe("keyedRunId", () => {
  it("is a valid id, the same for the same tenant, evaluation and key, and another for any other", () => {
    const id = keyedRunId("acme", "e1", "order-42 retry #1");
    expect(id).toMatch(/^key-[0-9a-f]{32}$/);
    expect(keyedRunId("acme", "e1", "order-42 retry #1")).toBe(id);
    expect(new Set([id, keyedRunId("globex", "e1", "order-42 retry #1"), keyedRunId("acme", "e2", "order-42 retry #1"), keyedRunId("acme", "e1", "order-42 retry #2")]).size).toBe(4);
  });
});

describe("startRun with an idempotency key", () => {
  it("a retry answers the first call's run, writing and metering nothing", async () => {
    const first = await startRun(store, keyed("k1"), deps());
    const before = store.log.length;
    const retry = await startRun(store, keyed("k1"), deps());
    expect(retry.run.state.runId).toBe(first.run.state.runId);
    expect(numberOf(retry)).toBe(1);
    expect(retry.run.events).toEqual([]);
    expect(retry.usage).toBeNull();
    expect(store.log.length).toBe(before);
    expect(of("UsageMetered").map((e) => e.data)).toEqual([expect.objectContaining({ run_id: keyed("k1").run_id, quantity: 6 })]);
    expect(of("RunStarted")[0].data).toMatchObject({ idempotency: { key: "k1", request_digest: expect.stringMatching(/^[0-9a-f]{64}$/) } });
  });

  it("racing sends of one key start one run, numbered once and metered once", async () => {
    const sends = await Promise.all(Array.from({ length: 5 }, () => startRun(store, keyed("k1"), deps())));
    expect(new Set(sends.map((s) => s.run.state.runId))).toEqual(new Set([keyed("k1").run_id]));
    expect(sends.map(numberOf)).toEqual([1, 1, 1, 1, 1]);
    expect(sends.filter((s) => s.run.events.length > 0)).toHaveLength(1);
    expect(of("RunScheduled")).toHaveLength(1);
    expect(of("RunStarted")).toHaveLength(1);
    expect(of("UsageMetered").map((e) => (e.data as { quantity: number }).quantity)).toEqual([6]);
  });

  it("the key with other arguments is a CONFLICT naming the key, and writes nothing", async () => {
    await startRun(store, keyed("k1"), deps());
    const before = store.log.length;
    for (const other of [{ models: [GPT] }, { keys: ["a"] }, { external: true }, { tools: [{ name: "lookup_order" }] }]) {
      const refused = await startRun(store, keyed("k1", other), deps()).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DomainError);
      expect(refused).toMatchObject({ code: "conflict", field: "idempotency_key" });
      expect((refused as Error).message).toMatch(/^idempotency key "k1" already started run #1 \(key-[0-9a-f]{32}\) of evaluation e1 with other arguments/);
    }
    expect(store.log.length).toBe(before);
  });

  it("another key, or none, starts another run, as every start did", async () => {
    await startRun(store, keyed("k1"), deps());
    const other = await startRun(store, keyed("k2"), deps());
    const unkeyed = await startRun(store, { run_id: "r9", evaluation_id: "e1", models: [GPT, CLAUDE] }, deps());
    expect([numberOf(other), numberOf(unkeyed)]).toEqual([2, 3]);
    expect(of("UsageMetered")).toHaveLength(3);
    expect(of("RunStarted")[2].data).not.toHaveProperty("idempotency");
  });

  it("a retry after the month's quota filled still answers its run: it was admitted", async () => {
    const plan = { executionsPerMonth: 6 };
    await startRun(store, keyed("k1"), deps(plan));
    await expect(startRun(store, keyed("k2"), deps(plan))).rejects.toMatchObject({ code: "plan_limit_reached" });
    const retry = await startRun(store, keyed("k1"), deps(plan));
    expect(numberOf(retry)).toBe(1);
  });

  it("the crash window: numbered and metered, then the run's append lost; the retry starts it under its number, metering nothing more", async () => {
    store.interleave(() => undefined); // the meter's append
    store.interleave(() => undefined); // the evaluation's append
    store.interleave(() => {
      throw new Error("connection lost"); // the run's append
    });
    await expect(startRun(store, keyed("k1"), deps())).rejects.toThrow("connection lost");
    expect(of("RunScheduled")).toHaveLength(1);
    expect(of("RunStarted")).toHaveLength(0);
    const retry = await startRun(store, keyed("k1"), deps());
    expect(retry.run.domainEvents[0]).toMatchObject({ type: "RunStarted", data: { number: 1 } });
    expect(of("RunScheduled")).toHaveLength(1);
    expect(of("UsageMetered")).toHaveLength(1);
  });

  it("refuses a keyed start whose run_id is not the key's (VALIDATION naming run_id)", async () => {
    await expect(startRun(store, keyed("k1", { run_id: "r1" }), deps())).rejects.toMatchObject({ code: "validation", field: "run_id" });
    expect(of("RunScheduled")).toHaveLength(0);
  });

  it("refuses a blank or over-long key, naming the field", async () => {
    await expect(startRun(store, keyed("k1", { idempotency_key: "  " }), deps())).rejects.toThrow(/idempotency_key: must be 1-255 characters, not blank/);
    await expect(startRun(store, keyed("k1", { idempotency_key: "k".repeat(256) }), deps())).rejects.toThrow(/idempotency_key: must be 1-255 characters/);
  });
});
