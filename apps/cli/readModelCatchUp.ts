// A start whose read models trail the log (a home written by an earlier version, whose read
// models are projected again; a read database rebuilt or restored) first applies what the log
// holds, before the API answers and the example runs: a mutation would otherwise wait for its
// projection behind the whole backlog, and give up after 30 s. A long catch-up says how far it
// has come; an up-to-date home (one read of the log) says nothing.
import { sayingProgress, type ProgressWording } from "@verdict/projector";
import type { Io } from "./io.js";

export interface CatchingUp {
  catchUp(onProgress?: (applied: number) => void): Promise<number>;
}

export function catchUpReadModels(projector: CatchingUp, io: Io, options: { everyMs?: number; now?: () => number } = {}): Promise<number> {
  return sayingProgress((onProgress) => projector.catchUp(onProgress), CATCH_UP_WORDING, (line) => io.out(line), options);
}

const CATCH_UP_WORDING: ProgressWording = {
  sofar: (count) => `verdict: projecting the event log into the read models: ${count} events so far`,
  done: (applied, seconds) => `verdict: read models up to date (${applied} events projected in ${seconds} s)`,
};
