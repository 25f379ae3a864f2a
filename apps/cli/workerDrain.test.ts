// A second Ctrl-C while `verdict start` stops gives up waiting for the worker's jobs in flight
// (a replay may take 120 s): before, the drain was waited for whatever the user pressed.
import { EventEmitter } from "node:events";
import { expect, it } from "vitest";
import { MemoryJobBus } from "@verdict/infra/jobbus";
import { bufferIo } from "./io.js";
import { stopSignals, type SignalTarget } from "./stopSignals.js";
import { countJobsInFlight, drainUnlessHurried } from "./workerDrain.js";

/** A stand-in for the process: signals are emitted by the test. */
const fakeProcess = () => new EventEmitter() as unknown as SignalTarget & EventEmitter;

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A consumer of `bus` whose handler holds every job it is given until released. */
async function stuckConsumer(counted: ReturnType<typeof countJobsInFlight>) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const consumer = await counted.bus.consume("t", () => held, { group: "g", concurrency: 4 });
  await counted.bus.publish("t", [{ key: "r1", value: 1 }, { key: "r2", value: 2 }]);
  await tick();
  return { consumer, release };
}

it("gives up the drain at the second signal, saying how many jobs it leaves, not at the first", async () => {
  const target = fakeProcess();
  const signals = stopSignals(target);
  const counted = countJobsInFlight(new MemoryJobBus());
  const { consumer, release } = await stuckConsumer(counted);
  expect(counted.inFlight()).toBe(2);
  const io = bufferIo();
  let drained = false;

  target.emit("SIGINT", "SIGINT");
  expect(await signals.stopped).toBe("SIGINT");
  const drain = drainUnlessHurried(consumer.stop(), signals.hurried, counted.inFlight, io).then(() => (drained = true));
  await tick();
  expect(drained).toBe(false);

  target.emit("SIGINT", "SIGINT");
  await drain;
  expect(signals.isHurried()).toBe(true);
  expect(io.stdout).toEqual(["second Ctrl-C: not waiting for 2 jobs in flight; their pairs run again at the next start"]);
  release();
  signals.dispose();
  expect(target.listenerCount("SIGINT")).toBe(0);
});

it("waits for a drain that ends before any second signal, and says nothing", async () => {
  const target = fakeProcess();
  const signals = stopSignals(target);
  const counted = countJobsInFlight(new MemoryJobBus());
  const { consumer, release } = await stuckConsumer(counted);
  const io = bufferIo();
  target.emit("SIGTERM", "SIGTERM");
  const drain = drainUnlessHurried(consumer.stop(), signals.hurried, counted.inFlight, io);
  release();
  await drain;
  expect(counted.inFlight()).toBe(0);
  expect(signals.isHurried()).toBe(false);
  expect(io.stdout).toEqual([]);
  signals.dispose();
});
