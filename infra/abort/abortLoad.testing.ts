// What an abort signal holds on behalf of others: its abort listeners, plus the signals Node
// derived from it with `AbortSignal.any` (an internal set; Node 20 never empties it, so it is
// what grew by one per subscription). A test reads it before and after some work to see that
// the work left nothing on a signal that outlives it.
import { getEventListeners } from "node:events";

export function abortLoad(signal: AbortSignal): number {
  const dependants = Object.getOwnPropertySymbols(signal).find((symbol) => symbol.description === "kDependantSignals");
  const derived = dependants ? ((signal as unknown as Record<symbol, Set<unknown> | undefined>)[dependants]?.size ?? 0) : 0;
  return getEventListeners(signal, "abort").length + derived;
}
