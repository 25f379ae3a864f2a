import { describe, expect, it } from "vitest";
import type { EventStore } from "@verdict/domain";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { rehearse } from "./rehearsal.js";

const event = (id: string) => ({ id, type: "Noted", schemaVersion: 1, data: { n: 1 }, metadata: {} });

describe("rehearse", () => {
  it("runs the command on a copy: what it appends there never reaches the store, and its refusal is thrown", async () => {
    const store = createMemoryEventStore();
    await store.append("thing-1", [event("00000000-0000-4000-8000-000000000001")], { expectedVersion: "noStream" });
    let seen = 0;
    await rehearse(store, ["thing-1", "other-1"], async (copy) => {
      seen = (await copy.readStream("thing-1")).length;
      await copy.append("other-1", [event("00000000-0000-4000-8000-000000000002")], { expectedVersion: "noStream" });
    });
    expect(seen).toBe(1);
    expect(await store.readStream("other-1")).toEqual([]);
    await expect(rehearse(store, ["thing-1"], async () => { throw new Error("refused"); })).rejects.toThrow("refused");
  });

  it("skips the rehearsal when the copy will not take the history as recorded", async () => {
    const store = createMemoryEventStore();
    await store.append("thing-1", [event("00000000-0000-4000-8000-000000000001")], { expectedVersion: "noStream" });
    // A history recorded under an older rule (here: an id that is no longer a UUID).
    const legacy = new Proxy(store, {
      get(target, name) {
        if (name === "readStream") return async (id: string, o?: never) => (await target.readStream(id, o)).map((e) => ({ ...e, id: "legacy-1" }));
        const value = Reflect.get(target, name);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as EventStore;
    let ran = false;
    await rehearse(legacy, ["thing-1"], async () => { ran = true; });
    expect(ran).toBe(false);
  });
});
