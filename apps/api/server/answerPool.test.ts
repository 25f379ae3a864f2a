import { describe, expect, it } from "vitest";
import { AnswerBudget } from "./answerBudget.js";
import { AnswerPool } from "./answerPool.js";

const weigh = (value: string) => value.length;
const answer = (bytes: number) => () => "x".repeat(bytes);
/** A request of `tenant` (default acme) with `maxBytes` to answer, holding from `pool`. */
const request = (maxBytes: number, pool: AnswerPool, tenant = "acme") => new AnswerBudget(maxBytes, { pool, tenant });

it("refuses, UNAVAILABLE, a field that fits its request's budget but not beside what other requests hold, and answers it once they gave theirs back", async () => {
  const pool = new AnswerPool(2_500, 2_500);
  const first = request(2_500, pool);
  const second = request(2_500, pool, "globex");
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
  const pool = new AnswerPool(10_000, 10_000);
  const one = request(10_000, pool);
  const other = request(10_000, pool);
  await one.charge("a", answer(3_000), weigh);
  await other.charge("b", answer(4_000), weigh);
  one.release();
  one.release();
  expect(pool.held).toBe(4_000);
});

it("takes nothing for a field that loads after its request was released (its client left), and loads none after", async () => {
  const pool = new AnswerPool(10_000, 10_000);
  const budget = request(10_000, pool);
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
  const pool = new AnswerPool(10_000, 10_000);
  const budget = request(1_000, pool);
  await expect(budget.charge("big", answer(1_500), weigh)).rejects.toMatchObject({ apiCode: "PAYLOAD_TOO_LARGE" });
  expect(pool.held).toBe(0);
});

it("loads at most four heavy fields at once in the process, whatever the requests, and lets each waiting one in as another ends", async () => {
  const pool = new AnswerPool(1_000_000, 1_000_000);
  let loading = 0;
  let most = 0;
  const slow = (bytes: number) => async () => {
    loading += 1;
    most = Math.max(most, loading);
    await new Promise((resolve) => setTimeout(resolve, 5));
    loading -= 1;
    return "x".repeat(bytes);
  };
  // Ten requests' fields at once, of five tenants (one request loads one at a time already).
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => request(1_000_000, pool, `t${i % 5}`).charge(`f${i}`, slow(10), weigh)));
  expect(answers).toHaveLength(10);
  expect(most).toBe(4);
  // A load that fails frees its slot too.
  const failing = Array.from({ length: 6 }, (_, i) => pool.loading(`t${i % 3}`, () => Promise.reject(new Error("gone"))));
  await Promise.allSettled(failing);
  await expect(pool.loading("t0", () => "after")).resolves.toBe("after");
});

describe("one tenant's share of the pool", () => {
  it("refuses a tenant at its share, UNAVAILABLE naming only its own share, while another tenant still takes; gives the share back with what it held", async () => {
    const pool = new AnswerPool(10_000, 5_000);
    const acme = request(10_000, pool);
    await acme.charge("a", answer(4_500), weigh);
    const refused = request(10_000, pool).charge("b", answer(1_000), weigh);
    await expect(refused).rejects.toMatchObject({
      apiCode: "UNAVAILABLE",
      message: expect.stringMatching(/^`b` \(about 1\.0 KB\) would take the heavy answers this tenant's requests hold past its share of 5\.0 KB \(VERDICT_API_MAX_HELD_ANSWER_BYTES_PER_TENANT\): retry in a moment, or ask for fewer heavy fields/),
    });
    // Neither what the process holds nor its pool is told: that is other tenants' business.
    await expect(refused).rejects.not.toMatchObject({ message: expect.stringMatching(/10\.0 KB|4\.5 KB|process/) });
    await expect(request(10_000, pool, "globex").charge("c", answer(5_000), weigh)).resolves.toHaveLength(5_000);
    expect([pool.held, pool.heldBy("acme"), pool.heldBy("globex")]).toEqual([9_500, 4_500, 5_000]);
    acme.release();
    expect([pool.held, pool.heldBy("acme")]).toEqual([5_000, 0]);
    await expect(request(10_000, pool).charge("b", answer(500), weigh)).resolves.toHaveLength(500);
  });

  it("loads at most two of one tenant's heavy fields at once, while another tenant's load still starts", async () => {
    const pool = new AnswerPool(1_000_000, 500_000);
    const started: string[] = [];
    const finish: Array<() => void> = [];
    const held = (name: string) => () => {
      started.push(name);
      return new Promise<string>((resolve) => finish.push(() => resolve(name)));
    };
    const acme = ["a1", "a2", "a3", "a4"].map((name) => pool.loading("acme", held(name)));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(started).toEqual(["a1", "a2"]);
    const globex = pool.loading("globex", held("g1"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(started).toEqual(["a1", "a2", "g1"]);
    // As one of acme's ends, its next waiting load starts.
    finish.shift()!();
    await acme[0];
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(started).toEqual(["a1", "a2", "g1", "a3"]);
    while (finish.length > 0) {
      finish.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await Promise.all([...acme, globex])).toEqual(["a1", "a2", "a3", "a4", "g1"]);
  });

  it("forgets a tenant that holds nothing and has nothing loading or waiting", async () => {
    const pool = new AnswerPool(10_000, 5_000);
    let finish: () => void = () => {};
    const loading = pool.loading("acme", () => new Promise<void>((resolve) => (finish = resolve)));
    expect(pool.tenantsTracked).toBe(1);
    finish();
    await loading;
    expect(pool.tenantsTracked).toBe(0);
    await expect(pool.loading("acme", () => Promise.reject(new Error("gone")))).rejects.toThrow("gone");
    expect(pool.tenantsTracked).toBe(0);
    pool.take("acme", 3_000, "a");
    pool.take("globex", 3_000, "b");
    // A refused take leaves no entry behind.
    expect(() => pool.take("initech", 9_000, "c")).toThrow(/share/);
    expect(pool.tenantsTracked).toBe(2);
    pool.give("acme", 3_000);
    pool.give("globex", 3_000);
    expect([pool.held, pool.tenantsTracked]).toEqual([0, 0]);
  });

  it("takes an answer larger than the share or the pool only when the pool holds nothing else, and nothing beside it", () => {
    const pool = new AnswerPool(10_000, 5_000);
    pool.take("acme", 1, "small");
    expect(() => pool.take("globex", 12_000, "the report")).toThrow(/past its share of 5\.0 KB/);
    pool.give("acme", 1);
    pool.take("globex", 12_000, "the report");
    expect(pool.held).toBe(12_000);
    expect(() => pool.take("acme", 1, "small")).toThrow(/for all requests past 10\.0 KB/);
    pool.give("globex", 12_000);
    expect(pool.held).toBe(0);
    pool.take("acme", 1, "small");
  });
});

describe("the wait for a load slot (VERDICT_API_HEAVY_LOAD_WAIT_MS)", () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** A load of `tenant` that holds its slot until `finish` is called. */
  function held(pool: AnswerPool, tenant: string): { loading: Promise<void>; finish: () => void } {
    let finish: () => void = () => {};
    const loading = pool.loading(tenant, () => new Promise<void>((resolve) => (finish = resolve)));
    return { loading, finish: () => finish() };
  }

  /**
   * Frees acme's first slot and checks a new load starts in that same turn (the freed slot went
   * to no waiter that had left), then frees the second: acme is forgotten.
   */
  async function expectNoWaiterLeft(pool: AnswerPool, slots: ReturnType<typeof held>[]): Promise<void> {
    slots[0].finish();
    await slots[0].loading;
    let started = false;
    const next = pool.loading("acme", () => (started = true));
    expect(started).toBe(true);
    await next;
    slots[1].finish();
    await slots[1].loading;
    expect(pool.tenantsTracked).toBe(0);
  }

  it("waits 30 s by default, and refuses a wait given in code that no timer keeps", () => {
    expect(new AnswerPool(1_000, 1_000).loadWaitMs).toBe(30_000);
    for (const wait of [0, -1, 1.5, Number.POSITIVE_INFINITY, Number.NaN, 1e10]) {
      expect(() => new AnswerPool(1_000, 1_000, wait), String(wait)).toThrow(/^VERDICT_API_HEAVY_LOAD_WAIT_MS=.*: a heavy load's wait must be a whole number of milliseconds from 1 to 2147483647$/);
    }
  });

  it("runs a load whose slot came before the deadline, and the deadline no longer bounds it once it runs", async () => {
    const pool = new AnswerPool(10_000, 10_000, 400);
    const first = held(pool, "acme");
    const second = held(pool, "acme");
    let started = false;
    const waiting = pool.loading("acme", async () => {
      started = true;
      // Loading for longer than the wait: it is not cut off.
      await sleep(450);
      return "loaded";
    });
    await sleep(40);
    first.finish();
    await first.loading;
    await sleep(5);
    expect(started).toBe(true);
    await expect(waiting).resolves.toBe("loaded");
    second.finish();
    await second.loading;
    expect(pool.tenantsTracked).toBe(0);
  });

  it("refuses a load still waiting for its tenant's slot at the deadline, UNAVAILABLE naming the wait and the setting, running nothing", async () => {
    const pool = new AnswerPool(10_000, 10_000, 50);
    const slots = [held(pool, "acme"), held(pool, "acme")];
    let ran = false;
    const started = Date.now();
    await expect(pool.loading("acme", () => (ran = true), { subject: "`runAudit`" })).rejects.toMatchObject({
      apiCode: "UNAVAILABLE",
      message: "`runAudit` got no load slot: this tenant's 2 heavy-answer load slots stayed busy with its other requests' heavy answers for the 50 ms a request may wait for them (VERDICT_API_HEAVY_LOAD_WAIT_MS): retry in a moment",
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(ran).toBe(false);
    // Another tenant's load still starts at once beside them.
    await expect(pool.loading("globex", () => "globex")).resolves.toBe("globex");
    for (const slot of slots) slot.finish();
    await Promise.all(slots.map((slot) => slot.loading));
  });

  it("names the process's slots when those are what it waited for", async () => {
    const pool = new AnswerPool(10_000, 10_000, 50);
    const slots = [held(pool, "a"), held(pool, "a"), held(pool, "b"), held(pool, "b")];
    await expect(pool.loading("c", () => "c", { subject: "the report" })).rejects.toMatchObject({
      apiCode: "UNAVAILABLE",
      message: "the report got no load slot: this API process's 4 heavy-answer load slots stayed busy for the 50 ms a request may wait for them (VERDICT_API_HEAVY_LOAD_WAIT_MS): retry in a moment",
    });
    for (const slot of slots) slot.finish();
    await Promise.all(slots.map((slot) => slot.loading));
    expect(pool.tenantsTracked).toBe(0);
  });

  it("leaks no slot: after a load gave up, the next one starts at once when a slot frees, and the tenant is forgotten once idle", async () => {
    const pool = new AnswerPool(10_000, 10_000, 30);
    const slots = [held(pool, "acme"), held(pool, "acme")];
    const gaveUp = Array.from({ length: 3 }, () => pool.loading("acme", () => "late"));
    for (const refused of gaveUp) await expect(refused).rejects.toMatchObject({ apiCode: "UNAVAILABLE" });
    // Still tracked: its two loads hold their slots.
    expect(pool.tenantsTracked).toBe(1);
    await expectNoWaiterLeft(pool, slots);
  });

  it("forgets a tenant whose only load gave up while waiting for the process's slot", async () => {
    const pool = new AnswerPool(10_000, 10_000, 30);
    const others = [held(pool, "a"), held(pool, "a"), held(pool, "b"), held(pool, "b")];
    await expect(pool.loading("acme", () => "late")).rejects.toMatchObject({ apiCode: "UNAVAILABLE" });
    expect(pool.tenantsTracked).toBe(2);
    for (const slot of others) slot.finish();
    await Promise.all(others.map((slot) => slot.loading));
    expect(pool.tenantsTracked).toBe(0);
  });

  it("takes a field out of the queue as soon as its request ends (its client left), not when a slot frees", async () => {
    const pool = new AnswerPool(10_000, 10_000, 60_000);
    const slots = [held(pool, "acme"), held(pool, "acme")];
    const budget = request(10_000, pool);
    let loaded = false;
    const waiting = budget.charge("audit", () => ((loaded = true), "x"), weigh);
    await sleep(5);
    budget.release();
    await expect(waiting).rejects.toMatchObject({ apiCode: "UNAVAILABLE", message: "`audit`: the request ended before this field was answered" });
    await expectNoWaiterLeft(pool, slots);
    expect(loaded).toBe(false);
  });
});
