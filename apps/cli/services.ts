// The read side and access control for a mode: read models (MikroORM on PostgreSQL, on the
// embedded default the PGlite instance the event log is in; migrations applied), the progress
// bus (in-process on PGlite, LISTEN/NOTIFY on PostgreSQL), API keys (a file on the embedded default, the api_keys
// table on PostgreSQL) and the dispatcher's checkpoints.
import { join } from "node:path";
import { createPostgresApiKeyStore, type ApiKeyStore } from "@verdict/api";
import { createMemoryProgressBus, createPostgresProgressBus, openReadModels, type OpenedReadModels, type ProgressBus } from "@verdict/projector";
import { MemoryCheckpointStore, PostgresCheckpointStore, type CheckpointStore } from "@verdict/worker";
import { createFileApiKeyStore } from "./fileApiKeyStore.js";
import { connecting } from "./databaseConnect.js";
import { embeddedDatabase, readUrlVariable, type PlatformMode, type Resources } from "./platform.js";

export async function openReadSide(mode: PlatformMode, resources: Resources): Promise<{ read: OpenedReadModels; progress: ProgressBus }> {
  const read = resources.add(
    mode.readUrl
      ? await connecting(readUrlVariable(mode), mode.readUrl, () => openReadModels({ url: mode.readUrl as string }))
      : await openReadModels({ pglite: await embeddedDatabase(mode, resources) }),
    (r) => r.close(),
  );
  const url = read.database.embedded ? null : read.database.url;
  const progress = resources.add(url ? createPostgresProgressBus({ url }) : createMemoryProgressBus(), (p) => p.close());
  return { read, progress };
}

/** `onHomeCreated`: the embedded home did not exist, and saving a key made it. */
export async function openApiKeys(mode: PlatformMode, resources: Resources, onHomeCreated?: () => void): Promise<ApiKeyStore> {
  const url = mode.readUrl;
  if (!url) return createFileApiKeyStore(join(mode.home, "api-keys.json"), undefined, onHomeCreated);
  return resources.add(await connecting(readUrlVariable(mode), url, () => createPostgresApiKeyStore({ url })), (k) => k.close());
}

/**
 * The embedded dispatcher starts from the log's beginning on every start: the in-memory job bus
 * lost whatever was queued when the last process stopped, so a run it left unfinished is
 * dispatched again (pairs already recorded are skipped). With Kafka the queue survives, so the
 * dispatcher resumes from its PostgreSQL checkpoint.
 */
export async function openCheckpoints(mode: PlatformMode, resources: Resources): Promise<CheckpointStore> {
  const url = mode.databaseUrl;
  if (url && mode.kafkaBrokers.length) {
    return resources.add(await connecting("DATABASE_URL", url, () => PostgresCheckpointStore.create({ connectionString: url })), (c) => c.close());
  }
  return resources.add(new MemoryCheckpointStore(), (c) => c.close());
}
