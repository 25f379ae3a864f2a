// A replay as the platform records it. The result aggregate stores an agent's answer through
// storableJsonOf (a NUL or an unpaired surrogate becomes U+FFFD: PostgreSQL cannot hold them) and
// the worker scores what it stored. A local run scores the replay it holds, so it takes the same
// step first: otherwise the judge read a lone surrogate a strict provider refuses ("no low
// surrogate in string"), every judge call of that pair failed and the pair passed on rules alone.
import { storableJsonOf } from "../events/storableText.js";
import { Replay } from "./replay.js";

/** The replay with its text as an event records it; the replay itself when nothing needs replacing. */
export function storableReplay(replay: Replay): Replay {
  const json = replay.toJSON();
  const stored = storableJsonOf(json);
  return stored === json ? replay : Replay.from(stored);
}
