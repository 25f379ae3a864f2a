// The condensing log (see index.ts): Outages for "X unreachable ... reachable again", and
// RepeatLimiter for any line that would otherwise repeat every few seconds.

/** Where the lines go: the worker's WorkerLog is one. `debug` is optional: without it, debug lines are dropped. */
export interface LineLog {
  info(message: string): void;
  error(message: string): void;
  debug?(message: string): void;
}

export interface OutageOptions {
  /** A line that repeats is shown again at most this often (default 30 s). */
  everyMs?: number;
  now?: () => number;
}

const DEFAULT_EVERY_MS = 30_000;

/** A duration the way a person reads it: 850ms, 45s, 2m40s, 1h05m. */
export function elapsed(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

function notShown(count: number): string {
  return count === 0 ? "" : `; ${count} repeat${count === 1 ? "" : "s"} not shown`;
}

interface Outage {
  since: number;
  shownAt: number;
  suppressed: number;
}

/**
 * Dependencies that stopped answering, by name ("Kafka broker 127.0.0.1:9092"). `down` as often
 * as the client retries; `up` on any sign that it answers (cheap when it was not down).
 */
export class Outages {
  readonly #log: LineLog;
  readonly #everyMs: number;
  readonly #now: () => number;
  readonly #down = new Map<string, Outage>();

  constructor(log: LineLog, options: OutageOptions = {}) {
    this.#log = log;
    this.#everyMs = options.everyMs ?? DEFAULT_EVERY_MS;
    this.#now = options.now ?? Date.now;
  }

  down(what: string, reason: string): void {
    const now = this.#now();
    const outage = this.#down.get(what);
    if (!outage) {
      this.#down.set(what, { since: now, shownAt: now, suppressed: 0 });
      this.#log.error(`${what} unreachable: ${reason}`);
      return;
    }
    if (now - outage.shownAt < this.#everyMs) {
      outage.suppressed += 1;
      return;
    }
    this.#log.error(`${what} still unreachable after ${elapsed(now - outage.since)}: ${reason}${notShown(outage.suppressed)}`);
    outage.shownAt = now;
    outage.suppressed = 0;
  }

  up(what: string): void {
    const outage = this.#down.get(what);
    if (!outage) return;
    this.#down.delete(what);
    this.#log.info(`${what} reachable again after ${elapsed(this.#now() - outage.since)}${notShown(outage.suppressed)}`);
  }

  isDown(what: string): boolean {
    return this.#down.has(what);
  }

  /** The names currently down. */
  get unreachable(): string[] {
    return [...this.#down.keys()];
  }
}

/**
 * The same line, repeated (a loop retrying every 2 s), shown at most once per `everyMs` with the
 * number of times it was not shown; a different line is shown at once.
 */
export class RepeatLimiter {
  readonly #everyMs: number;
  readonly #now: () => number;
  readonly #seen = new Map<string, { shownAt: number; suppressed: number }>();

  constructor(options: OutageOptions = {}) {
    this.#everyMs = options.everyMs ?? DEFAULT_EVERY_MS;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The line to show for `line` now (with the repeats not shown since), or null to show nothing.
   * Lines with the same `key` (default: the line) are repeats of each other.
   */
  pass(line: string, key = line): string | null {
    const now = this.#now();
    for (const [other, seen] of this.#seen) if (now - seen.shownAt >= this.#everyMs && other !== key) this.#seen.delete(other);
    const seen = this.#seen.get(key);
    if (seen && now - seen.shownAt < this.#everyMs) {
      seen.suppressed += 1;
      return null;
    }
    const suppressed = seen?.suppressed ?? 0;
    this.#seen.set(key, { shownAt: now, suppressed: 0 });
    return suppressed === 0 ? line : `${line} (repeated ${suppressed} more time${suppressed === 1 ? "" : "s"} since it was last shown)`;
  }

  /** `log` with its error lines passed through this limiter (its other lines as they are). */
  wrap<L extends LineLog>(log: L): L {
    const error = (message: string) => {
      const line = this.pass(message);
      if (line !== null) log.error(line);
    };
    const debug = log.debug ? (message: string) => log.debug?.(message) : undefined;
    return { info: (message: string) => log.info(message), error, ...(debug ? { debug } : {}) } as L;
  }
}
