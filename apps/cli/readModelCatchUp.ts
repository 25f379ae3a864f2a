// A start whose read models trail the log (a home written by an earlier version, whose read
// models are projected again; a read database rebuilt or restored) first applies what the log
// holds, before the API answers and the example runs: a mutation would otherwise wait for its
// projection behind the whole backlog, and give up after 30 s. A long catch-up says how far it
// has come; an up-to-date home (one read of the log) says nothing.
import type { Io } from "./io.js";

export interface CatchingUp {
  catchUp(onProgress?: (applied: number) => void): Promise<number>;
}

export async function catchUpReadModels(projector: CatchingUp, io: Io, options: { everyMs?: number; now?: () => number } = {}): Promise<number> {
  const everyMs = options.everyMs ?? 2_000;
  const now = options.now ?? Date.now;
  const started = now();
  let lastSaid = started;
  const applied = await projector.catchUp((count) => {
    if (now() - lastSaid < everyMs) return;
    lastSaid = now();
    io.out(`verdict: projecting the event log into the read models: ${count} events so far`);
  });
  if (lastSaid !== started) io.out(`verdict: read models up to date (${applied} events projected in ${((now() - started) / 1000).toFixed(1)} s)`);
  return applied;
}
