// Caches of finished runs (ReadModels' own, the API's) keep a run's rows once it ended: the
// deciders refuse every later event. A rebuild may still change them (a new projection version:
// 2 filled runs.host_run_id), so before answering from memory a cache calls check(), which reads
// the rebuild generation (one row, projection/rebuildGeneration.ts) at most once every `everyMs`
// and, when it changed, tells every listener to forget what it kept.
//
// A check waits for the read at most `waitMs` (200 ms), then goes on as if it had not been asked
// yet: every request waits on it, and a read that never settles (a black-holed connection, no
// query timeout) froze the whole API, and on the embedded PGlite a kept answer queued behind any
// long transaction. The read still tells the listeners when it answers. A read not settled after
// `abandonMs` (5 s) is given up and the next check asks again; its late answer is still used,
// unless a read asked after it answered first. How stale an answer from memory may be after a
// rebuild commits: `everyMs` while the generation read answers within `waitMs`; beyond that, for
// as long as that read takes, and while the read database does not answer at all (or refuses the
// read), what is kept is served as it is, a line on stderr saying so at most every 30 s.
//
// A load that started before a rebuild was noticed may hold rows from before it: a cache keeps a
// load only if `epoch` (raised at each rebuild noticed) is the one it started under. A load that
// went on without waiting started under the epoch the pending read raises when it sees a change.
//
// Polled rather than announced (LISTEN/NOTIFY): several API processes and the embedded one read
// it the same way, and a reader that was not listening when the rebuild committed still sees it.
import { elapsed, RepeatLimiter } from "@verdict/infra/logging";

export interface RebuildWatchOptions {
  /** Reads the generation (projection/rebuildGeneration.ts readRebuildGeneration). */
  read: () => Promise<string>;
  /** At most one read this often (default DEFAULT_REBUILD_CHECK_MS; 0 reads at every check). */
  everyMs?: number;
  /** How long a check waits for a read in flight before going on without it (default DEFAULT_REBUILD_WAIT_MS). */
  waitMs?: number;
  /** A read not settled this long after it was asked is given up: the next check asks again (default DEFAULT_REBUILD_ABANDON_MS). */
  abandonMs?: number;
  /** Where a read that failed or was given up is told, each at most every 30 s (default stderr). */
  warn?: (line: string) => void;
  now?: () => number;
}

/** How stale a cache may be after a rebuild commits, while the generation read answers within DEFAULT_REBUILD_WAIT_MS: as long as a verified API key is trusted. */
const DEFAULT_REBUILD_CHECK_MS = 1_000;
/** How long a request waits for the generation read, at most. */
const DEFAULT_REBUILD_WAIT_MS = 200;
/** After this long unsettled, a generation read is given up and asked again. */
const DEFAULT_REBUILD_ABANDON_MS = 5_000;

const DONE: Promise<void> = Promise.resolve();
/** No read answered yet, and every check waited for one: the first answer is what the caches are of. */
const UNREAD = Symbol("unread");
/** No read answered yet, and a check went on without one: the caches may hold any generation, the first answer clears them. */
const UNKNOWN = Symbol("unknown");

interface Read {
  serial: number;
  askedAt: number;
  /** Settles once the read settled or `waitMs` passed, whichever first; never rejects. */
  waited: Promise<void>;
}

export class RebuildWatch {
  readonly #read: () => Promise<string>;
  readonly #everyMs: number;
  readonly #waitMs: number;
  readonly #abandonMs: number;
  readonly #warn: (line: string) => void;
  readonly #now: () => number;
  readonly #limiter: RepeatLimiter;
  readonly #listeners = new Set<() => void>();
  /** The generation last read, or what is known of it before one was. */
  #known: string | typeof UNREAD | typeof UNKNOWN = UNREAD;
  /** The read whose answer `#known` is (reads are numbered as asked). */
  #knownSerial = 0;
  #serial = 0;
  #readAt = -Infinity;
  #reading: Read | null = null;
  #epoch = 0;

  constructor({
    read, everyMs = DEFAULT_REBUILD_CHECK_MS, waitMs = DEFAULT_REBUILD_WAIT_MS, abandonMs = DEFAULT_REBUILD_ABANDON_MS,
    warn = (line) => console.error(line), now = Date.now,
  }: RebuildWatchOptions) {
    this.#read = read;
    this.#everyMs = everyMs;
    this.#waitMs = waitMs;
    this.#abandonMs = abandonMs;
    this.#warn = warn;
    this.#now = now;
    this.#limiter = new RepeatLimiter({ now });
  }

  /** Raised each time a rebuild is noticed: a load begun under an older epoch is not kept. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Told each time a rebuild is noticed (before the checks waiting on that read resolve). Returns the unsubscribe. */
  onRebuilt(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * Resolves once what is cached is known to be of the current generation, as of at most
   * `everyMs` ago, or after `waitMs` at most when the read has not answered by then. Never
   * rejects: a read that fails keeps what is cached (the generation is asked again after
   * `everyMs`, and a change is noticed then), as the reads that follow fail on their own when the
   * database cannot be reached.
   */
  check(): Promise<void> {
    const now = this.#now();
    if (this.#reading && now - this.#reading.askedAt >= this.#abandonMs) this.#abandon(now - this.#reading.askedAt);
    if (this.#reading) return this.#reading.waited;
    if (now - this.#readAt < this.#everyMs) return DONE;
    this.#reading = this.#ask(now);
    return this.#reading.waited;
  }

  #ask(now: number): Read {
    this.#readAt = now; // before the read: staleness counts from when it was asked
    const serial = ++this.#serial;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settled = new Promise<string>((resolve) => resolve(this.#read())).then(
      (generation) => this.#answered(serial, generation),
      (error: unknown) => this.#failed(error),
    ).finally(() => {
      clearTimeout(timer);
      if (this.#reading?.serial === serial) this.#reading = null;
    });
    const given = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.#wentOnWithoutAnswer();
        resolve();
      }, this.#waitMs);
      timer.unref?.();
    });
    return { serial, askedAt: now, waited: Promise.race([settled, given]) };
  }

  #answered(serial: number, generation: string): void {
    // An older read's answer after a later one's: the later one stands (the next read sees any change).
    if (serial < this.#knownSerial) return;
    const changed = this.#known === UNKNOWN || (this.#known !== UNREAD && generation !== this.#known);
    this.#known = generation;
    this.#knownSerial = serial;
    if (!changed) return;
    this.#epoch += 1;
    for (const listener of this.#listeners) listener();
  }

  /** Requests go on (and may fill caches) without this read: before any read answered, the first to answer must clear. */
  #wentOnWithoutAnswer(): void {
    if (this.#known === UNREAD) this.#known = UNKNOWN;
  }

  #failed(error: unknown): void {
    this.#wentOnWithoutAnswer();
    this.#say("failed", `could not be read (${withoutCredentials(error instanceof Error ? error.message : String(error))})`);
  }

  #abandon(ms: number): void {
    this.#reading = null;
    this.#wentOnWithoutAnswer();
    this.#say("abandoned", `not read: no answer in ${elapsed(ms)}, asked again`);
  }

  #say(key: string, what: string): void {
    const line = this.#limiter.pass(`[read models] the rebuild generation (projector_rebuilds) ${what}; finished runs kept in memory are served as they are until a read answers`, key);
    if (line !== null) this.#warn(line);
  }
}

/** A URL's user and password, should a driver's message hold one, are never logged. */
function withoutCredentials(text: string): string {
  return text.replace(/\/\/[^\s/@]*@/g, "//");
}
