// `projector rebuild` replays the whole log before it prints anything on stdout (14-36 s on a log
// of 100k results), so a long one says how far it has come, as `verdict start`'s catch-up does
// (apps/cli/readModelCatchUp.ts): every `everyMs` at most, on stderr in main.ts so stdout stays
// the one JSON document. A quick rebuild says nothing.
import { sayingProgress, type ProgressWording } from "./progressLines.js";

export interface Rebuilding {
  rebuild(onProgress?: (applied: number) => void): Promise<number>;
}

export function rebuildSayingProgress(projector: Rebuilding, say: (line: string) => void, options: { everyMs?: number; now?: () => number } = {}): Promise<number> {
  return sayingProgress((onProgress) => projector.rebuild(onProgress), REBUILD_WORDING, say, options);
}

const REBUILD_WORDING: ProgressWording = {
  sofar: (count) => `projector: rebuilding the read models from the event log: ${count} events so far`,
  done: (applied, seconds) => `projector: read models rebuilt (${applied} events projected in ${seconds} s); computing the checksum`,
};
