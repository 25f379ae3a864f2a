import { describe, expect, it } from "vitest";
import { Coalescer } from "./coalescer.js";

/** A coalescer that answers each input doubled and records the batches it was sent. */
function recording(options: { failBatchesWith?: number } = {}) {
  const batches: number[][] = [];
  const coalescer = new Coalescer<number, number>({
    many: async (inputs) => {
      batches.push(inputs);
      if (options.failBatchesWith !== undefined && inputs.includes(options.failBatchesWith)) throw new Error("spoiled");
      return inputs.map((n) => n * 2);
    },
    one: async (input) => {
      batches.push([input]);
      if (input === options.failBatchesWith) throw new Error(`refused ${input}`);
      return input * 2;
    },
  });
  return { coalescer, batches };
}

/** Resolves after `hops` microtasks: a caller that reaches the store after some async work. */
async function microtasks(hops: number): Promise<void> {
  for (let i = 0; i < hops; i++) await Promise.resolve();
}

describe("Coalescer", () => {
  it("answers a lone request", async () => {
    const { coalescer, batches } = recording();
    expect(await coalescer.submit(21)).toBe(42);
    expect(batches).toEqual([[21]]);
  });

  it("sends the requests made in one turn of the event loop as one batch, however many microtasks apart", async () => {
    const { coalescer, batches } = recording();
    // Jobs let through a limiter one after another reach the store tens of microtasks apart.
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map(async (n) => {
      await microtasks(n * 20);
      return coalescer.submit(n);
    }));
    expect(answers).toEqual([2, 4, 6, 8, 10, 12]);
    expect(batches).toEqual([[1, 2, 3, 4, 5, 6]]);
  });

  it("gathers what arrives while a batch is in flight into the next one", async () => {
    const { coalescer, batches } = recording();
    const first = coalescer.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    // The first batch has gone out; these wait for it, then go together.
    const rest = [coalescer.submit(2), coalescer.submit(3)];
    expect(await Promise.all([first, ...rest])).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it("retries a spoiled batch one request at a time, so only the bad request fails", async () => {
    const { coalescer } = recording({ failBatchesWith: 2 });
    const outcomes = await Promise.allSettled([1, 2, 3].map((n) => coalescer.submit(n)));
    expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : (o.reason as Error).message))).toEqual([2, "refused 2", 6]);
  });
});
