// `projector rebuild` replays the whole log before it prints anything on stdout (14-36 s on a log
// of 100k results), so a long one says how far it has come, as `verdict start`'s catch-up does
// (apps/cli/readModelCatchUp.ts): every `everyMs` at most, on stderr in main.ts so stdout stays
// the one JSON document. A quick rebuild says nothing.
export interface Rebuilding {
  rebuild(onProgress?: (applied: number) => void): Promise<number>;
}

export async function rebuildSayingProgress(projector: Rebuilding, say: (line: string) => void, options: { everyMs?: number; now?: () => number } = {}): Promise<number> {
  const everyMs = options.everyMs ?? 2_000;
  const now = options.now ?? Date.now;
  const started = now();
  let lastSaid = started;
  const applied = await projector.rebuild((count) => {
    if (now() - lastSaid < everyMs) return;
    lastSaid = now();
    say(`projector: rebuilding the read models from the event log: ${count} events so far`);
  });
  if (lastSaid !== started) say(`projector: read models rebuilt (${applied} events projected in ${((now() - started) / 1000).toFixed(1)} s); computing the checksum`);
  return applied;
}
