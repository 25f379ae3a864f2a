// Deterministic Clock and IdGenerator for tests: time stands still unless advanced, ids count up.
import type { Clock, IdGenerator } from "../../events/clock.js";

export function fixedClock(iso = "2026-11-30T12:00:00.000Z"): Clock & { advance(ms: number): void } {
  let now = new Date(iso).getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

export function sequentialIds(prefix = "00000000-0000-4000-8000-"): IdGenerator {
  let n = 0;
  return { next: () => `${prefix}${String(++n).padStart(12, "0")}` };
}
