// Where the platform's state lives, chosen from the environment (DESIGN.md "Embedded default"):
//   neither DATABASE_URL nor KAFKA_BROKERS  embedded: one PGlite under VERDICT_HOME/events (the
//                                           event log and the read models), the in-memory job
//                                           bus, keys in a file
//   DATABASE_URL (+ KAFKA_BROKERS)          PostgreSQL for events, read models and keys; Kafka
//                                           when KAFKA_BROKERS names brokers, else in-memory
// Each command opens only what it needs; `close()` releases what was opened, in reverse.
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { EventStore, JobBus } from "@verdict/domain";
import type { Io } from "./io.js";
import { releaseOnSignal } from "./releaseOnSignal.js";
import { HomeInUseError, homeCreatedLine, homeNamed, homeProblem, homeVariable, lockHome, openPgliteDataDir, pgliteDataDirExists, verdictHome } from "@verdict/infra/db";
import { createMemoryEventStore, createPgliteEventStore, createPostgresEventStore } from "@verdict/infra/eventstore";
import { KafkaJobBus, MemoryJobBus, parseKafkaBrokers } from "@verdict/infra/jobbus";
import { checkDatabaseUrl } from "@verdict/infra/pg";
import { connecting } from "./databaseConnect.js";
import { CliError, HomeInUseRefusal } from "./errors.js";

export interface PlatformMode {
  embedded: boolean;
  home: string;
  databaseUrl: string | null;
  readUrl: string | null;
  kafkaBrokers: string[];
}

/**
 * Where `verdict start` saves its reports: `<home>/reports`, and on PostgreSQL a folder of that
 * database's own (`<home>/reports/<host>-<port>-<database>`). Run numbers start again in each
 * event log, so a PostgreSQL run #5 wrote over the embedded run #5's report.
 */
export function reportsDirOf(mode: PlatformMode): string {
  const reports = join(mode.home, "reports");
  if (mode.databaseUrl === null) return reports;
  let store = "postgres";
  try {
    const url = new URL(mode.databaseUrl);
    store = `${url.hostname || "localhost"}-${url.port || "5432"}-${decodeURIComponent(url.pathname.slice(1)) || "postgres"}`;
  } catch {
    // Not a URL (a connection string pg reads otherwise): one folder for it.
  }
  return join(reports, store.replace(/[^A-Za-z0-9._-]+/g, "_"));
}

export function platformMode(env: NodeJS.ProcessEnv): PlatformMode {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  const readUrl = env.VERDICT_READ_DATABASE_URL?.trim() || databaseUrl;
  const kafkaBrokers = parseKafkaBrokers(env.KAFKA_BROKERS);
  if (kafkaBrokers.length > 0 && !databaseUrl) {
    throw new CliError(
      "KAFKA_BROKERS is set but DATABASE_URL is not: workers on Kafka need the events in PostgreSQL. " +
        "Set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/verdict), or unset KAFKA_BROKERS for the embedded default.",
    );
  }
  // The embedded default keeps the log and the read models in one PGlite home: read models in
  // PostgreSQL beside it were a mode the projector refuses, whose own advice then failed.
  if (env.VERDICT_READ_DATABASE_URL?.trim() && !databaseUrl) {
    throw new CliError(
      "VERDICT_READ_DATABASE_URL is set but DATABASE_URL is not: set DATABASE_URL to the event log those read models are made from " +
        "(or unset VERDICT_READ_DATABASE_URL for the embedded default, which keeps both in its home)",
    );
  }
  // pg's own error is a bare "Invalid URL", or a DNS error for a user name taken as the host.
  try {
    checkDatabaseUrl("DATABASE_URL", databaseUrl);
    checkDatabaseUrl("VERDICT_READ_DATABASE_URL", readUrl);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const home = verdictHome(env);
  const problem = databaseUrl ? null : homeProblem(home, homeVariable(env));
  if (problem) throw new CliError(problem);
  return { embedded: !databaseUrl, home, databaseUrl, readUrl, kafkaBrokers };
}

/** The variable that names the read database: its own, or DATABASE_URL when they are one. */
export function readUrlVariable(mode: PlatformMode): string {
  return mode.readUrl === mode.databaseUrl ? "DATABASE_URL" : "VERDICT_READ_DATABASE_URL";
}

/** Resources opened in order, closed in reverse; a failed step closes what came before. */
export class Resources {
  private readonly closers: Array<() => Promise<unknown>> = [];

  add<T>(value: T, close: (value: T) => Promise<unknown>): T {
    this.closers.push(() => close(value));
    return value;
  }

  async close(): Promise<void> {
    while (this.closers.length) {
      const close = this.closers.pop() as () => Promise<unknown>;
      await close().catch((error: unknown) => console.error(`while closing: ${(error as Error).message}`));
    }
  }
}

/**
 * Locks an embedded home for this process (a no-op with PostgreSQL). With `announce`, a home that
 * did not exist and is created here is said on stderr, so a mistyped VERDICT_HOME is seen.
 * Until it is released, SIGINT/SIGTERM close `resources` and exit 128+n (releaseOnSignal.ts),
 * unless the command stops on signals itself (`ownSignals`: verdict start).
 */
export async function claimHome(
  mode: PlatformMode, resources: Resources, announce?: { who: string; io: Io; env: NodeJS.ProcessEnv }, options: { ownSignals?: boolean } = {},
): Promise<void> {
  if (!mode.embedded) return;
  const onCreated = announce && (() => announce.io.err(homeCreatedLine(announce.who, mode.home, announce.env)));
  const claiming = lockHome(mode.home, { onCreated }).catch((error: unknown) => {
    throw error instanceof HomeInUseError ? new HomeInUseRefusal(error.message) : error;
  });
  // Installed before the lock file is made: a signal while it is claimed waits for the claim and
  // releases it itself, as it may not be in `resources` yet (a second release does nothing).
  const closeOnSignal = {
    async close() {
      const claimed = await claiming.catch(() => null);
      await resources.close();
      await claimed?.();
    },
  };
  const ignoreSignals = options.ownSignals ? null : releaseOnSignal(closeOnSignal);
  const release = await claiming.catch((error: unknown) => {
    ignoreSignals?.();
    throw error;
  });
  // The handlers go with the lock, the last thing closed, so a signal while the database closes still releases it.
  resources.add(release, async (r) => {
    await r();
    ignoreSignals?.();
  });
}

const embeddedDatabases = new WeakMap<Resources, Promise<PGlite>>();

/**
 * The embedded home's one PGlite, opened once per Resources: the event log and the read models
 * share it. A second instance cost ~50 MB of resident memory (its own WebAssembly memory and
 * compiled code) and bought nothing: PGlite runs on this process's one thread either way.
 */
export function embeddedDatabase(mode: PlatformMode, resources: Resources): Promise<PGlite> {
  let opened = embeddedDatabases.get(resources);
  if (!opened) {
    opened = openPgliteDataDir(join(mode.home, "events")).then((db) => resources.add(db, (d) => d.close()));
    embeddedDatabases.set(resources, opened);
  }
  return opened;
}

export async function openEventStore(mode: PlatformMode, resources: Resources): Promise<EventStore> {
  const url = mode.databaseUrl;
  if (url) return resources.add(await connecting("DATABASE_URL", url, () => createPostgresEventStore({ connectionString: url })), (s) => s.close());
  const db = await embeddedDatabase(mode, resources);
  // The home is locked to this process: it is the log's only writer (the read models in the same
  // database never write the event tables), so the store's log tail may take its own appends as the log.
  return resources.add(await createPgliteEventStore({ db, soleWriter: true }), (s) => s.close());
}

/**
 * The event store for a command that needs what is already recorded (a preview, an export, a
 * report, an import into an evaluation): an embedded home with no event log yet reads as an
 * empty log, and nothing is created or locked for it.
 */
export async function openExistingEventStore(mode: PlatformMode, resources: Resources): Promise<EventStore> {
  if (mode.embedded && !pgliteDataDirExists(join(mode.home, "events"))) return createMemoryEventStore();
  await claimHome(mode, resources);
  return openEventStore(mode, resources);
}

/**
 * Why a name was not found, when the reason is the home: an embedded home with no event log
 * (a mistyped VERDICT_HOME reads as an empty one), or null. Said after a not-found refusal only,
 * so a first preview or import on a new home stays quiet.
 */
export function emptyHomeNote(env: NodeJS.ProcessEnv): string | null {
  let mode: PlatformMode;
  try {
    mode = platformMode(env);
  } catch {
    return null;
  }
  if (!mode.embedded || pgliteDataDirExists(join(mode.home, "events"))) return null;
  return `${homeNamed(mode.home, env)} holds no event log: nothing was imported or run there yet (is it the home you meant?)`;
}

export function openJobBus(mode: PlatformMode, resources: Resources): JobBus {
  const bus = mode.kafkaBrokers.length
    ? new KafkaJobBus({ brokers: mode.kafkaBrokers, clientId: `verdict-start-${process.pid}` })
    : new MemoryJobBus();
  return resources.add<JobBus>(bus, (b) => b.close());
}

export function describeMode(mode: PlatformMode): string {
  if (mode.embedded) return `embedded: PGlite under ${mode.home}, in-memory job bus`;
  const bus = mode.kafkaBrokers.length ? `Kafka at ${mode.kafkaBrokers.join(",")}` : "in-memory job bus (set KAFKA_BROKERS for Kafka)";
  return `PostgreSQL (DATABASE_URL${mode.readUrl !== mode.databaseUrl ? ", read models at VERDICT_READ_DATABASE_URL" : ""}), ${bus}`;
}
