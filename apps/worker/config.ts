// The worker's settings from its environment and command line, checked before anything starts:
// a missing or malformed setting is an error that names the variable and what to set.
import { DEFAULT_JUDGE_TIMEOUT_MS, PriceTableError, type AgentRuntime, type PriceTable } from "@verdict/domain";
import { AGENT_FORMS, loadAgent, shownSpec } from "@verdict/infra/agents";
import { parseKafkaBrokers, topicPrefixFromEnv } from "@verdict/infra/jobbus";
import { checkDatabaseUrl, PgSettingsError, pgSettingsFromEnv, type PgSettings } from "@verdict/infra/pg";
import { loadPriceTable } from "@verdict/infra/pricing";
import { loadJudge, parseJudgeSpec, type JudgeBackend } from "@verdict/infra/judges";
import { ExitError, REPLAY_TIMEOUT_RULE, SETTING_EXIT_CODE, SettingError, unknownArgumentLine, wholeNumberSetting } from "@verdict/infra/settings";
import { ALL_ROLES, DEFAULT_REPLAY_TIMEOUT_MS, type WorkerRole } from "./startWorker.js";
import { DEFAULT_STALL_MS } from "./watchdog.js";

export interface WorkerConfig {
  databaseUrl: string;
  kafkaBrokers: string[];
  /** `scripted:<path>`, `module:<path>` or `http:<url>`; null when this process does not replay. */
  agent: string | null;
  /** `scripted:<path>` or `none`. */
  judge: string;
  /**
   * The operator's price table file (VERDICT_PRICES), read once at start: a replay reporting
   * no cost is recorded with its estimated cost (domain/pricing/priceReplay.ts); null
   * when unset. A process without the replay role reads and checks it too (a bad file stops it,
   * as it would the replay workers beside it), then says it does not use it.
   */
  prices: string | null;
  replayTimeoutMs: number;
  /**
   * A judge call unanswered after this long is skipped (default DEFAULT_JUDGE_TIMEOUT_MS, 120 s);
   * null: no limit (VERDICT_JUDGE_TIMEOUT_MS=0).
   */
  judgeTimeoutMs: number | null;
  concurrency: number;
  roles: WorkerRole[];
  partitions: number;
  replayKey: "run" | "pair";
  topicPrefix: string;
  /**
   * How much lower than what it inherited this process's CPU priority is (nice, 0-19; default
   * 10). Replays are throughput work: on a host shared with the projector, the API or
   * PostgreSQL, they give way, so progress reaches subscribers while a run saturates the CPU.
   */
  nice: number;
  /** No progress for this long re-drives a run, then fails it (watchdog.ts); null: off (VERDICT_WATCHDOG_STALL_MS=0). */
  watchdogStallMs: number | null;
  /** Connect timeout, keepalive and the leadership session's check (VERDICT_PG_*; infra/pg/settings.ts). */
  pg: PgSettings;
  /**
   * How long SIGTERM lets running jobs finish before the process exits with them unacknowledged
   * (VERDICT_SHUTDOWN_GRACE_MS; default 20 s, under Kubernetes' default 30 s grace period).
   */
  shutdownGraceMs: number;
}

const DEFAULT_WORKER_NICE = 10;
const DEFAULT_SHUTDOWN_GRACE_MS = 20_000;

/** A worker setting the user must change: main ends the process with its message and exit 2 (infra/settings processExit.ts). */
export class WorkerConfigError extends ExitError {
  readonly code = "validation";
  constructor(message: string) {
    super(message, SETTING_EXIT_CODE);
  }
}

/** A whole-number setting's error (SettingError) as the worker's own. */
function checked<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof SettingError ? new WorkerConfigError(error.message) : error;
  }
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return checked(() => wholeNumberSetting(env, name, { min: 1 }, fallback));
}

/** A time limit in ms that `0` turns off (null), like VERDICT_WATCHDOG_STALL_MS; unset: `fallback`. */
function limitMsOrOff(env: NodeJS.ProcessEnv, name: string, fallback: number): number | null {
  return checked(() => wholeNumberSetting(env, name, { min: 1, unit: "milliseconds", zeroMeans: "no limit" }, fallback));
}

function niceFrom(env: NodeJS.ProcessEnv): number {
  return checked(() => wholeNumberSetting(env, "VERDICT_WORKER_NICE", { min: 0, max: 19 }, DEFAULT_WORKER_NICE));
}

function pgSettingsOf(env: NodeJS.ProcessEnv): PgSettings {
  try {
    return pgSettingsFromEnv(env);
  } catch (error) {
    if (error instanceof PgSettingsError) throw new WorkerConfigError(error.message);
    throw error;
  }
}

function rolesFrom(argv: readonly string[]): WorkerRole[] {
  const roles: WorkerRole[] = [];
  for (const arg of argv) {
    const role = /^--(dispatcher|replay|complete)$/.exec(arg)?.[1] as WorkerRole | undefined;
    if (!role) throw new WorkerConfigError(unknownArgumentLine(arg, "use --dispatcher, --replay and/or --complete (default: all three)"));
    roles.push(role);
  }
  return roles.length ? [...new Set(roles)] : [...ALL_ROLES];
}

/** Why KAFKA_BROKERS gives no broker: unset (or blank), or set to commas alone (`,`), which name none. */
function noBrokerLine(raw: string | undefined): string {
  const what = raw?.trim() ? `names no broker (got ${JSON.stringify(raw)})` : "is not set";
  return `KAFKA_BROKERS ${what}: name the Kafka brokers as host:port, comma separated (e.g. 127.0.0.1:9092)`;
}

export function readWorkerConfig(env: NodeJS.ProcessEnv, argv: readonly string[]): WorkerConfig {
  const roles = rolesFrom(argv);
  const databaseUrl = env.DATABASE_URL?.trim();
  if (!databaseUrl) throw new WorkerConfigError("DATABASE_URL is not set: the worker reads and writes the event store there (e.g. postgres://postgres@127.0.0.1:5432/verdict)");
  // pg's own error is a bare "Invalid URL", or a DNS error for a user name taken as the host.
  checked(() => checkDatabaseUrl("DATABASE_URL", databaseUrl));
  const brokers = parseKafkaBrokers(env.KAFKA_BROKERS);
  if (brokers.length === 0) throw new WorkerConfigError(noBrokerLine(env.KAFKA_BROKERS));
  const agent = env.VERDICT_AGENT?.trim() || null;
  if (roles.includes("replay") && !agent) {
    throw new WorkerConfigError(`VERDICT_AGENT is not set: the replay role needs ${AGENT_FORMS}`);
  }
  const replayKey = env.VERDICT_REPLAY_KEY?.trim() || "run";
  if (replayKey !== "run" && replayKey !== "pair") throw new WorkerConfigError(`VERDICT_REPLAY_KEY must be "run" or "pair" (got ${JSON.stringify(replayKey)})`);
  const replayTimeoutMs = checked(() => wholeNumberSetting(env, "VERDICT_REPLAY_TIMEOUT_MS", REPLAY_TIMEOUT_RULE, DEFAULT_REPLAY_TIMEOUT_MS));
  const watchdogStallMs = limitMsOrOff(env, "VERDICT_WATCHDOG_STALL_MS", DEFAULT_STALL_MS);
  // A replay may take its whole budget: a watchdog that gives up sooner fails runs whose replays
  // are only slow (it failed a run of three 100 s replays, whose results then came in after).
  if (roles.includes("dispatcher") && watchdogStallMs !== null && watchdogStallMs <= replayTimeoutMs) {
    throw new WorkerConfigError(
      `VERDICT_WATCHDOG_STALL_MS (${watchdogStallMs}) must be longer than VERDICT_REPLAY_TIMEOUT_MS (${replayTimeoutMs}): ` +
        "a run whose replays take their whole budget would be taken for one whose jobs were lost (set the replay workers' VERDICT_REPLAY_TIMEOUT_MS here too)",
    );
  }
  return {
    databaseUrl,
    kafkaBrokers: brokers,
    agent: roles.includes("replay") ? agent : null,
    judge: env.VERDICT_JUDGE?.trim() || "none",
    prices: env.VERDICT_PRICES?.trim() || null,
    replayTimeoutMs,
    // The core Judge's default, and the providers' own hard stop (DEFAULT_PROVIDER_TIMEOUT_MS): a
    // scripted or custom backend that hangs would otherwise hold its pairs, and their run, for ever.
    judgeTimeoutMs: limitMsOrOff(env, "VERDICT_JUDGE_TIMEOUT_MS", DEFAULT_JUDGE_TIMEOUT_MS),
    concurrency: positiveInt(env, "VERDICT_WORKER_CONCURRENCY", 4),
    roles,
    partitions: positiveInt(env, "VERDICT_KAFKA_PARTITIONS", 6),
    replayKey,
    topicPrefix: checked(() => topicPrefixFromEnv(env)),
    nice: niceFrom(env),
    watchdogStallMs,
    pg: pgSettingsOf(env),
    shutdownGraceMs: checked(() => wholeNumberSetting(env, "VERDICT_SHUTDOWN_GRACE_MS", { min: 0, unit: "milliseconds" }, DEFAULT_SHUTDOWN_GRACE_MS)),
  };
}

/** A setting's error from infra (SettingError, naming the variable) as the worker's own. */
async function checkedLoad<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw error instanceof SettingError ? new WorkerConfigError(error.message) : error;
  }
}

/** VERDICT_AGENT: `scripted:<path.yaml>`, `module:<path.mjs>` or `http:<url>` (e.g. `http:https://host/replay`). */
export async function agentFromSpec(spec: string): Promise<AgentRuntime> {
  return checkedLoad(() => loadAgent("VERDICT_AGENT", spec));
}

/**
 * VERDICT_JUDGE: `scripted:<path.yaml>`, `providers` (model providers configured by their keys in
 * `env`) or `none`; a script that cannot be loaded, or providers with none configured, name the
 * setting. `providers:MODEL` (`verdict run --judge`'s pin) is refused: the worker judges each run
 * on the judge model its evaluation names, routed per run (apps/worker/README.md).
 */
export async function judgeFromSetting(spec: string, env: Record<string, string | undefined> = process.env): Promise<JudgeBackend | null> {
  const parsed = parseJudgeSpec(spec);
  if (!parsed) throw new WorkerConfigError(`VERDICT_JUDGE must be "none", "providers" or "scripted:<path to a judge script>" ${shownSpec(spec)}`);
  if (parsed.kind === "providers" && parsed.model !== null) {
    throw new WorkerConfigError(
      `VERDICT_JUDGE takes no judge model ${shownSpec(spec)}: each run is judged on the judge model its evaluation names; set VERDICT_JUDGE=providers`,
    );
  }
  return checkedLoad(() => loadJudge("VERDICT_JUDGE", parsed, env));
}

/** VERDICT_PRICES: the price table in the file; a bad file is refused naming the setting, the file, the path and the rule. */
export function pricesFromSetting(path: string): PriceTable {
  try {
    return loadPriceTable(path);
  } catch (error) {
    throw error instanceof PriceTableError ? new WorkerConfigError(`VERDICT_PRICES: ${error.message}`) : error;
  }
}
