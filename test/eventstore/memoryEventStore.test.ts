import { createMemoryEventStore } from "@verdict/infra";
import { describe, expect, it, vi } from "vitest";
import type { EventStore } from "../../domain/ports/eventStore.js";
import { abortLoad } from "../../infra/abort/abortLoad.testing.js";
import { eventStoreContract, events } from "../contracts/eventStore.js";

eventStoreContract("memory", async (tuning) => createMemoryEventStore(tuning));

/** A memory store and the signals of the controllers it made (its closing signal among them). */
function storeWithItsSignals(): { store: EventStore; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  vi.stubGlobal(
    "AbortController",
    class extends AbortController {
      constructor() {
        super();
        signals.push(this.signal);
      }
    },
  );
  try {
    return { store: createMemoryEventStore(), signals };
  } finally {
    vi.unstubAllGlobals();
  }
}

describe("the memory store's closing signal", () => {
  it("holds nothing for subscriptions that ended, and still ends one that runs", async () => {
    const { store, signals } = storeWithItsSignals();
    expect(signals.length).toBeGreaterThan(0);
    await store.append("s-1", events(1));
    const caller = new AbortController();
    for (let i = 0; i < 2_000; i += 1) {
      for await (const recorded of store.subscribeAll({ signal: i % 2 ? caller.signal : undefined })) {
        expect(recorded.streamId).toBe("s-1");
        break;
      }
    }
    expect(signals.map(abortLoad)).toEqual(signals.map(() => 0));
    // Still linked while running: closing the store ends a subscription that has a caller's signal too.
    const received: unknown[] = [];
    const consuming = (async () => {
      for await (const recorded of store.subscribeAll({ signal: caller.signal })) received.push(recorded);
    })();
    while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await store.close();
    await consuming;
    expect(received).toHaveLength(1);
    expect(abortLoad(caller.signal)).toBe(0);
  });
});
