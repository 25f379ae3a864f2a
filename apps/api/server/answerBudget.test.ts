import { expect, it } from "vitest";
import { AnswerBudget } from "./answerBudget.js";
import { AnswerPool } from "./answerPool.js";

/** A heavy field's load that takes a moment, counting how many are loaded at once. */
function loads() {
  let loading = 0;
  let most = 0;
  const load = (bytes: number) => async () => {
    loading += 1;
    most = Math.max(most, loading);
    await new Promise((resolve) => setTimeout(resolve, 10));
    loading -= 1;
    return "x".repeat(bytes);
  };
  return { load, most: () => most };
}

it("loads one heavy field at a time, each charged before the next starts, so fields past the budget are refused without being held together", async () => {
  const budget = new AnswerBudget(2_500);
  const { load, most } = loads();
  const weigh = (value: string) => value.length;
  // As graphql-js starts sibling fields: all at once.
  const answers = await Promise.allSettled([1_000, 1_000, 1_000, 400].map((bytes, i) => budget.charge(`f${i}`, load(bytes), weigh)));
  expect(most()).toBe(1);
  expect(answers.map((a) => a.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
  expect((answers[2] as PromiseRejectedResult).reason).toMatchObject({ apiCode: "PAYLOAD_TOO_LARGE", message: expect.stringMatching(/^`f2` would take this request's answer past its budget of 2\.5 KB \(about 1\.0 KB, with 2\.0 KB already answered/) });
});

it("goes on after a field whose load failed", async () => {
  const budget = new AnswerBudget(100);
  const failed = budget.charge("a", () => Promise.reject(new Error("not found")), () => 0);
  const next = budget.charge("b", () => "ok", (value) => value.length);
  await expect(failed).rejects.toThrow("not found");
  await expect(next).resolves.toBe("ok");
});

it("gives a request's heavy fields one wait for load slots in all, not one each: five fields waited five times as long", async () => {
  const pool = new AnswerPool(10_000, 10_000, 200);
  // The tenant's 2 slots held by its other requests for longer than the wait.
  const release: Array<() => void> = [];
  const holding = [0, 1].map(() => pool.loading("acme", () => new Promise<void>((resolve) => release.push(resolve))));
  const budget = new AnswerBudget(10_000, { pool, tenant: "acme" });
  const started = performance.now();
  const fields = await Promise.allSettled([0, 1, 2, 3, 4].map((i) => budget.charge(`f${i}`, () => "x", (value) => value.length)));
  const took = performance.now() - started;
  expect(fields.map((field) => field.status)).toEqual(Array(5).fill("rejected"));
  for (const field of fields) expect((field as PromiseRejectedResult).reason).toMatchObject({ apiCode: "UNAVAILABLE", message: expect.stringContaining("for the 200 ms a request may wait for them") });
  // Each field waiting its own 200 ms took ~1,000 ms.
  expect(took).toBeGreaterThanOrEqual(190);
  expect(took).toBeLessThan(600);
  for (const done of release) done();
  await Promise.all(holding);
  expect(pool.tenantsTracked).toBe(0);
});

