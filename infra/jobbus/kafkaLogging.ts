// The one place a Kafka client of this platform is made (KafkaJobBus, and the worker's batch bus),
// and how it logs. kafkajs printed a JSON line per retry, most with a stack: ~135 lines a worker
// for a broker stopped 2m40s, ~230 (185 KB) for the database refused 68 s (every job failing,
// per partition per retry), and nothing at all while the broker was paused (its requests just
// time out). Here kafkajs logs through the platform's log, condensed (infra/logging): the broker
// unreachable is one line naming it and why, repeated at most every 30 s with the count not shown,
// and one line when it answers again; a job failing because a dependency is unreachable (the
// database) is reported the same way, by the bus. Stacks go to the log's debug level only.
import type { Admin, Consumer, Kafka, LogEntry, Producer } from "kafkajs";
import { loadKafkajs } from "../lazy/index.js";
import { Outages, RepeatLimiter, type LineLog } from "../logging/index.js";

export interface KafkaLoggingOptions {
  /** Where the lines go (default: stderr, `[kafka] ` first). */
  log?: LineLog;
  /** Shared with the rest of the process, so one outage is one line whoever sees it. */
  outages?: Outages;
  /**
   * The dependency a job's error says is unreachable ("PostgreSQL db:5432/verdict"), or null
   * when the error is not that (then the job failure is shown as it is, rate-limited).
   */
  unreachable?: (error: unknown) => string | null;
  /** A line that repeats is shown at most this often (default 30 s). */
  everyMs?: number;
}

export const stderrKafkaLog: LineLog = {
  info: (message) => console.error(`[kafka] ${message}`),
  error: (message) => console.error(`[kafka] error: ${message}`),
};

/** What kafkajs says when it cannot reach a broker (its own error names and messages). */
const BROKER_TROUBLE = /KafkaJSConnection|KafkaJSRequestTimeout|KafkaJSNoBrokerAvailable|KafkaJSBrokerNotFound|Connection error|Connection timeout|Failed to connect|Closed connection|Request .* timed out/;
/**
 * kafkajs's error responses while a consumer group changes members (a worker joined, left or
 * restarted): routine, each member rejoins by itself. Shown at the debug level only; they were
 * error lines ("Response Heartbeat(key: 12, version: 3)") on every start of a second worker.
 */
const GROUP_MEMBERSHIP = /^(The group is rebalancing, so a rejoin is needed|The coordinator is not aware of this member|Specified group generation id is not valid|This is not the correct coordinator for this group)$/;
/** Socket errors: the broker's only when they name one of its addresses (the database's name 5432). */
const SOCKET_TROUBLE = /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE/;

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // An AggregateError (every address of `localhost` refused) has no message, only a code.
  return error.message || String((error as { code?: unknown }).code ?? error.name);
}

export class KafkaLogging {
  readonly log: LineLog;
  readonly outages: Outages;
  /** How the broker is named in a line: "Kafka broker 127.0.0.1:9092". */
  readonly broker: string;
  readonly #brokers: readonly string[];
  readonly #limiter: RepeatLimiter;
  readonly #unreachable: (error: unknown) => string | null;
  /** Dependencies a failing job named: a job that succeeds says they answer again. */
  readonly #jobDependencies = new Set<string>();

  constructor(brokers: readonly string[], options: KafkaLoggingOptions = {}) {
    this.log = options.log ?? stderrKafkaLog;
    this.outages = options.outages ?? new Outages(this.log, { everyMs: options.everyMs });
    this.#brokers = brokers;
    this.broker = `Kafka broker${brokers.length === 1 ? "" : "s"} ${brokers.join(", ")}`;
    this.#limiter = new RepeatLimiter({ everyMs: options.everyMs });
    this.#unreachable = options.unreachable ?? (() => null);
  }

  /** A kafkajs client that logs here (retries as before unless given). */
  client(clientId: string, retry: { retries: number; initialRetryTime: number } = { retries: 8, initialRetryTime: 100 }): Kafka {
    const { Kafka, logLevel } = loadKafkajs();
    return new Kafka({
      clientId,
      brokers: [...this.#brokers],
      logLevel: logLevel.ERROR,
      logCreator: () => (entry) => this.entry(entry),
      retry,
    });
  }

  /** One kafkajs log entry: the broker unreachable, a job failure (the bus reports those), or anything else, rate-limited. */
  entry({ namespace, label, log }: LogEntry): void {
    const { message, stack, error } = log as { message: string; stack?: string; error?: unknown };
    this.log.debug?.(`kafkajs ${label} [${namespace}] ${message}${error ? `: ${messageOf(error)}` : ""}${stack ? `\n${stack}` : ""}`);
    // The handler's own error: the bus reports it (jobFailed), without the stack kafkajs adds.
    if (/^Error when calling each(Batch|Message)$/.test(message)) return;
    // A topic the broker refused to create: the bus's error names it and why (kafkaJobBus.ts).
    if (/^Response CreateTopics\b/.test(message)) return;
    if (/^Response /.test(message) && typeof error === "string" && GROUP_MEMBERSHIP.test(error)) return;
    if (this.isBrokerTrouble(message)) return this.outages.down(this.broker, message.replace(/^Crash: /, "consumer stopped: "));
    // "Restarting the consumer in 3456ms": the same line whatever the delay.
    // A response's error is in its own field: without it the line said only which request failed.
    const line = `kafkajs: [${namespace}] ${message}${/^Response /.test(message) && error ? `: ${messageOf(error)}` : ""}`;
    const shown = this.#limiter.pass(line, line.replace(/\d+ms\b/, "…ms"));
    if (shown !== null) this.log.error(shown);
  }

  private isBrokerTrouble(message: string): boolean {
    if (BROKER_TROUBLE.test(message)) return true;
    return SOCKET_TROUBLE.test(message) && this.#brokers.some((broker) => message.includes(broker));
  }

  /** The broker answered. */
  reachable(): void {
    this.outages.up(this.broker);
  }

  /** Follows a consumer's, producer's or admin's events: a request timing out (a paused broker logs nothing else), or a sign the broker answers. */
  watch(client: Consumer | Producer | Admin): void {
    const events = client.events as Record<string, string>;
    const on = client.on.bind(client) as (event: string, listener: (event: { payload: unknown }) => void) => void;
    // kafkajs's pendingDuration is how long the request queued before it was sent (often 0): the
    // wait that timed out runs from when the request was made.
    on(events.REQUEST_TIMEOUT, ({ payload }) => {
      const request: { createdAt?: unknown; apiName?: unknown; broker?: unknown } = typeof payload === "object" && payload !== null ? payload : {};
      const waited = typeof request.createdAt === "number" ? `${Date.now() - request.createdAt}ms` : "its timeout";
      const apiName = typeof request.apiName === "string" ? request.apiName : "";
      const broker = typeof request.broker === "string" ? request.broker : "the broker";
      this.outages.down(this.broker, `request ${apiName} to ${broker} timed out after ${waited}`);
    });
    for (const name of ["CONNECT", "FETCH", "GROUP_JOIN", "HEARTBEAT"]) if (events[name]) on(events[name], () => this.reachable());
  }

  /** A job's handler threw (the job is delivered again): one condensed line per outage, or the error rate-limited. */
  jobFailed(topic: string, error: unknown): void {
    this.log.debug?.(`${topic} job failed: ${(error as Error)?.stack ?? messageOf(error)}`);
    const dependency = this.#unreachable(error);
    if (dependency) {
      this.#jobDependencies.add(dependency);
      this.outages.down(dependency, `${messageOf(error)} (${topic} jobs are delivered again until it answers)`);
      return;
    }
    const line = this.#limiter.pass(`${topic} job failed, to be delivered again: ${messageOf(error)}`);
    if (line !== null) this.log.error(line);
  }

  /**
   * Runs a delivered job's handler, reporting how it ended: a failure condensed (jobFailed) and
   * thrown on, so the job is delivered again as before; a success as what answers again (jobDone).
   */
  async handled(topic: string, handler: () => Promise<void>): Promise<void> {
    try {
      await handler();
    } catch (error) {
      this.jobFailed(topic, error);
      throw error;
    }
    this.jobDone();
  }

  /** A job's handler resolved: what failing jobs named unreachable answers again. */
  jobDone(): void {
    if (this.#jobDependencies.size === 0) return;
    for (const dependency of this.#jobDependencies) this.outages.up(dependency);
    this.#jobDependencies.clear();
  }
}
