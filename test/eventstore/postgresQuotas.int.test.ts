// Plan quotas under concurrency, on PostgreSQL (reference-platform #38): starts near the month's
// limit race on the tenant's usage stream, appended with the exact version each read, so they
// never admit more than fits; a refused start writes nothing anywhere (no meter, no number, no
// run), and an admitted one is metered exactly once.
import { randomUUID } from "node:crypto";
import {
  createEvaluation, evaluationStream, readWholeStream, runStream, startRun, usageMonth, usageStream,
} from "@verdict/domain";
import { describe, expect, it } from "vitest";
import { usePostgresEventStore } from "./postgresEventStoreFixture.js";

const postgres = usePostgresEventStore();

const GPT = { label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini" };
const CLAUDE = { label: "claude-sonnet-5", provider: "anthropic", model: "claude-sonnet-5" };

describe("concurrent starts near a plan's limit (PostgreSQL)", () => {
  it("5 starts of 2 executions each with 5 left admit exactly 2; the 3 refused write nothing", async () => {
    const tenant = `quota-${randomUUID().slice(0, 8)}`;
    // Retries generous, as postgresStartRuns does: the check is the admission count, not the race budget.
    const options = { clock: { now: () => new Date() }, ids: { next: () => randomUUID() }, context: { tenant, actor: "api" }, plan: { executionsPerMonth: 7 }, retries: 24 };
    const evaluationId = randomUUID();
    await createEvaluation(postgres.store, { evaluation_id: evaluationId, tenant, agent: "SupportAgent", name: "Quota", scenarios: [{ key: "a", prompt: "hi" }] }, options);
    await startRun(postgres.store, { run_id: randomUUID(), evaluation_id: evaluationId, models: [GPT, CLAUDE] }, options); // 2 used
    const runIds: string[] = Array.from({ length: 5 }, () => randomUUID());
    const settled = await Promise.allSettled(runIds.map((run_id) => startRun(postgres.store, { run_id, evaluation_id: evaluationId, models: [GPT, CLAUDE], external: true }, options)));

    const admitted = runIds.filter((_, i) => settled[i].status === "fulfilled");
    const refused = runIds.filter((_, i) => settled[i].status === "rejected");
    expect(admitted).toHaveLength(2);
    for (const s of settled) {
      if (s.status === "rejected") expect(s.reason).toMatchObject({ code: "plan_limit_reached", details: { kind: "execution", limit: 7, requested: 2 } });
    }
    const meters = (await readWholeStream(postgres.store, usageStream(tenant, usageMonth(new Date())))).map((e) => e.data as { run_id: string; quantity: number });
    expect(meters.reduce((sum, m) => sum + m.quantity, 0)).toBe(6);
    expect(meters.filter((m) => admitted.includes(m.run_id)).map((m) => m.quantity)).toEqual([2, 2]);
    expect(meters.some((m) => refused.includes(m.run_id))).toBe(false);
    const scheduled = (await readWholeStream(postgres.store, evaluationStream(evaluationId))).filter((e) => e.type === "RunScheduled").map((e) => (e.data as { run_id: string }).run_id);
    expect(scheduled).toHaveLength(3);
    expect(scheduled.some((id) => refused.includes(id))).toBe(false);
    for (const id of refused) expect(await readWholeStream(postgres.store, runStream(id))).toEqual([]);
    for (const id of admitted) expect((await readWholeStream(postgres.store, runStream(id))).map((e) => e.type)).toEqual(["RunStarted"]);
  });
});
