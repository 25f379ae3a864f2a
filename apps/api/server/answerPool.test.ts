import { expect, it } from "vitest";
import { AnswerBudget } from "./answerBudget.js";
import { AnswerPool } from "./answerPool.js";

const weigh = (value: string) => value.length;
const answer = (bytes: number) => () => "x".repeat(bytes);

it("refuses, UNAVAILABLE, a field that fits its request's budget but not beside what other requests hold, and answers it once they gave theirs back", async () => {
  const pool = new AnswerPool(2_500);
  const first = new AnswerBudget(2_500, pool);
  const second = new AnswerBudget(2_500, pool);
  await first.charge("a", answer(2_000), weigh);
  expect(pool.held).toBe(2_000);
  await expect(second.charge("b", answer(1_000), weigh)).rejects.toMatchObject({
    apiCode: "UNAVAILABLE",
    message: expect.stringMatching(/^`b` \(about 1\.0 KB\) would take the heavy answers this API process holds for all requests past 2\.5 KB \(VERDICT_API_MAX_HELD_ANSWER_BYTES\): retry in a moment, or ask for fewer heavy fields/),
  });
  // A refused field takes nothing, from the pool or from its request.
  expect(pool.held).toBe(2_000);
  first.release();
  expect(pool.held).toBe(0);
  await expect(second.charge("b", answer(1_000), weigh)).resolves.toHaveLength(1_000);
  expect(pool.held).toBe(1_000);
});

it("gives back once: a second release of the same request gives nothing more", async () => {
  const pool = new AnswerPool(10_000);
  const one = new AnswerBudget(10_000, pool);
  const other = new AnswerBudget(10_000, pool);
  await one.charge("a", answer(3_000), weigh);
  await other.charge("b", answer(4_000), weigh);
  one.release();
  one.release();
  expect(pool.held).toBe(4_000);
});

it("takes nothing for a field that loads after its request was released (its client left), and loads none after", async () => {
  const pool = new AnswerPool(10_000);
  const budget = new AnswerBudget(10_000, pool);
  let finish: (value: string) => void = () => {};
  const loading = budget.charge("slow", () => new Promise<string>((resolve) => (finish = resolve)), weigh);
  await new Promise((resolve) => setTimeout(resolve, 5));
  budget.release();
  finish("x".repeat(4_000));
  await expect(loading).rejects.toMatchObject({ apiCode: "UNAVAILABLE" });
  expect(pool.held).toBe(0);
  let loaded = false;
  const later = () => {
    loaded = true;
    return "y";
  };
  await expect(budget.charge("later", later, weigh)).rejects.toMatchObject({ apiCode: "UNAVAILABLE" });
  expect(loaded).toBe(false);
});

it("refuses past the request's own budget first, PAYLOAD_TOO_LARGE, taking nothing from the pool", async () => {
  const pool = new AnswerPool(10_000);
  const budget = new AnswerBudget(1_000, pool);
  await expect(budget.charge("big", answer(1_500), weigh)).rejects.toMatchObject({ apiCode: "PAYLOAD_TOO_LARGE" });
  expect(pool.held).toBe(0);
});

it("loads at most four heavy fields at once in the process, whatever the requests, and lets each waiting one in as another ends", async () => {
  const pool = new AnswerPool(1_000_000);
  let loading = 0;
  let most = 0;
  const slow = (bytes: number) => async () => {
    loading += 1;
    most = Math.max(most, loading);
    await new Promise((resolve) => setTimeout(resolve, 5));
    loading -= 1;
    return "x".repeat(bytes);
  };
  // Ten requests' fields at once (one request loads one at a time already).
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => new AnswerBudget(1_000_000, pool).charge(`f${i}`, slow(10), weigh)));
  expect(answers).toHaveLength(10);
  expect(most).toBe(4);
  // A load that fails frees its slot too.
  const failing = Array.from({ length: 6 }, () => pool.loading(() => Promise.reject(new Error("gone"))));
  await Promise.allSettled(failing);
  await expect(pool.loading(() => "after")).resolves.toBe("after");
});
