// Long projection work (a rebuild, a start's catch-up) says how far it has come: a line every
// `everyMs` at most while it runs, and one when it is done; work that ends within `everyMs` says
// nothing. Shared by `projector rebuild` and `verdict start`, which word the lines their own way.

export interface ProgressWording {
  /** While it runs: `count` events applied so far. */
  sofar(count: number): string;
  /** When it is done, after at least one progress line: `applied` events in `seconds` (one decimal). */
  done(applied: number, seconds: string): string;
}

export async function sayingProgress(
  work: (onProgress: (applied: number) => void) => Promise<number>,
  wording: ProgressWording,
  say: (line: string) => void,
  options: { everyMs?: number; now?: () => number } = {},
): Promise<number> {
  const everyMs = options.everyMs ?? 2_000;
  const now = options.now ?? Date.now;
  const started = now();
  let lastSaid = started;
  const applied = await work((count) => {
    if (now() - lastSaid < everyMs) return;
    lastSaid = now();
    say(wording.sofar(count));
  });
  if (lastSaid !== started) say(wording.done(applied, ((now() - started) / 1000).toFixed(1)));
  return applied;
}
