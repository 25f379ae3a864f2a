// A runtime's replay without a duration of its own gets the wall time the runtime measured, so
// latency percentiles and the max_latency_ms criterion have a figure for it.
import type { ReplayData } from "@verdict/domain";

/** The replay's own duration_ms when it reports one; else `wallMs`. */
export function timed(replay: ReplayData, wallMs: number): ReplayData {
  return replay.duration_ms == null ? { ...replay, duration_ms: wallMs } : replay;
}
