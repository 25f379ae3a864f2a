// The backup/restore review's finding, on real PostgreSQL: separate event and read databases,
// the read database backed up after run 2 and the log restored from a backup taken after run 1.
// The projector followed on from its checkpoint past the log's end: the next run was numbered 2
// again, beside a run 2 the log no longer had. It refuses such read models now, changing nothing;
// a projector restarted at the log's head still follows it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { createPostgresEventStore } from "@verdict/infra";
import type { EventStore, LogPosition } from "@verdict/domain";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { createProjector, DEFAULT_PROJECTOR_NAME } from "./projector.js";
import { readModelChecksum } from "./db/checksum.js";
import { ormDatabase } from "./db/sql.js";
import { readStoredCheckpoint } from "./projection/checkpoint.js";
import { ReadModelsAheadOfLogError } from "./projection/sameLog.js";
import { openTestReadModels, type OrmReadModels } from "./testing/testReadModels.js";
import { beginRun, commandDeps, createEvaluation, GPT, recordPair } from "./testing/runFixture.js";

const here = dirname(fileURLToPath(import.meta.url));
const TSX = import.meta.resolve("tsx");
const NAME = DEFAULT_PROJECTOR_NAME; // the one `npm run projector` follows with

let events: TestDatabase;
let readDb: TestDatabase;
let store: EventStore;
let read: OrmReadModels;
/** Where the log ended after run 1: what a backup taken then holds. */
let afterRun1: LogPosition;

/** Deletes every event after `position` and sets the streams' versions back, as a restore of a backup taken there leaves the log. */
async function rollBackLog(url: string, position: LogPosition): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("DELETE FROM messages WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)", [position.commit.toString(), position.prepare.toString()]);
    await client.query("DELETE FROM streams s WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.stream_id = s.stream_id)");
    await client.query("UPDATE streams s SET version = (SELECT max(stream_version) FROM messages m WHERE m.stream_id = s.stream_id)");
  } finally {
    await client.end();
  }
}

function projectorRun(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ["--import", TSX, join(here, "main.ts"), "run"], { cwd: join(here, "..", ".."), env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  // A projector that follows (the bug) never exits by itself: stopped after a while, it says so.
  const timer = setTimeout(() => child.kill("SIGTERM"), 20_000);
  return { exited: exited.finally(() => clearTimeout(timer)), output: () => ({ stdout, stderr }) };
}

beforeAll(async () => {
  events = await createTestDatabase("verdict_ahead_events");
  readDb = await createTestDatabase("verdict_ahead_read");
  store = await createPostgresEventStore({ connectionString: events.url, pollIntervalMs: 100 });
  read = await openTestReadModels({ url: readDb.url });
  const deps = commandDeps("acme");
  await createEvaluation(store, deps, "e1", ["a", "b"]);
  const run1 = await beginRun(store, deps, "e1", "r1", [GPT]);
  await recordPair(store, deps, run1, "a", GPT.label, "passed");
  afterRun1 = (await store.lastPosition())!;
  const run2 = await beginRun(store, deps, "e1", "r2", [GPT]);
  await recordPair(store, deps, run2, "a", GPT.label, "failed");
  await createProjector({ store, orm: read.orm, name: NAME }).catchUp();
});

afterAll(async () => {
  await read?.close();
  await store?.close();
  await readDb?.drop();
  await events?.drop();
});

describe("a read database whose checkpoint is past the end of the event log", () => {
  it("a projector restarted at the log's head follows it", async () => {
    const projector = createProjector({ store, orm: read.orm, name: NAME, retryDelayMs: null });
    expect(await projector.catchUp()).toBe(0);
    projector.start();
    await beginRun(store, commandDeps("acme"), "e1", "r3", [GPT]);
    await projector.waitFor((await store.lastPosition())!);
    await projector.stop();
    expect((await readModelChecksum(ormDatabase(read.orm))).runs.rows).toBe(3);
  });

  it("is refused, naming both positions, the older backup and the rebuild, and nothing is changed", async () => {
    await rollBackLog(events.url, afterRun1);
    const sql = ormDatabase(read.orm);
    const before = await readModelChecksum(sql);
    const checkpoint = await readStoredCheckpoint(sql.sql(), NAME);

    const refusal = await createProjector({ store, orm: read.orm, name: NAME }).catchUp().then(() => null, (error: unknown) => error);
    expect(refusal).toBeInstanceOf(ReadModelsAheadOfLogError);
    const message = (refusal as Error).message;
    expect(message).toContain(`at ${checkpoint!.position.commit}/${checkpoint!.position.prepare}, past this event log's last event (${afterRun1.commit}/${afterRun1.prepare})`);
    expect(message).toMatch(/restored from a backup older than the read database's/);
    expect(message).toMatch(/npm run projector -- rebuild/);
    expect(message).toMatch(/nothing was changed$/);

    expect(await readModelChecksum(sql)).toEqual(before);
    expect(await readStoredCheckpoint(sql.sql(), NAME)).toEqual(checkpoint);
  });

  it("`npm run projector -- run` exits 1 with that line instead of following the log", async () => {
    const sql = ormDatabase(read.orm);
    const before = await readModelChecksum(sql);
    const proc = projectorRun({ DATABASE_URL: events.url, VERDICT_READ_DATABASE_URL: readDb.url });
    const code = await proc.exited;
    const { stdout, stderr } = proc.output();
    expect(stdout).not.toMatch(/projector following the log/);
    expect(stderr).toMatch(/past this event log's last event/);
    expect(code).toBe(1);
    expect(await readModelChecksum(sql)).toEqual(before);
  }, 40_000);
});
