// `npm run bench -- eventstore`: the PostgreSQL event store against plain SQL on the same server,
// in a fresh database, in one run (issue 5 "Speed"). Baselines: plain multi-row INSERTs of the
// same rows with the same concurrency and batching (a hot stream guarded by a unique
// (stream_id, stream_version) index), and a plain keyset read by global_position.
// Targets: appends >= 0.6x plain, hot stream >= 0.5x, readAll >= 0.5x, live p95 < 50 ms.
import { createPostgresEventStore } from "@verdict/infra";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import pg from "pg";
import type { EventStore, EventToAppend, LogPosition } from "../domain/ports/eventStore.js";
import { WrongExpectedVersionError } from "../domain/ports/eventStore.js";
import { createEventStoreTestDatabase } from "../test/eventstore/testDatabase.js";
import { peakRssMb, printTable } from "./harness.js";

const PLAIN_TABLE = `CREATE TABLE plain_messages (
  global_position bigserial PRIMARY KEY, stream_id text NOT NULL, stream_version bigint NOT NULL,
  message_id uuid NOT NULL UNIQUE, type text NOT NULL, schema_version integer NOT NULL,
  data jsonb NOT NULL, metadata jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_id, stream_version))`;

interface Row extends Record<string, string> {
  figure: string;
  store: string;
  plain: string;
  ratio: string;
  target: string;
  ok: string;
}
const rows: Row[] = [];

function event(n: number): EventToAppend {
  return {
    id: randomUUID(),
    type: "ResultScored",
    schemaVersion: 1,
    data: { runId: "r-1", scenario: `scenario-${n}`, model: "gpt-x", scores: { accuracy: 0.8, tone: 0.9 }, pass: true, diagnosis: "fine" },
    metadata: { correlationId: randomUUID(), actor: "bench" },
  };
}

function record(figure: string, store: number, plain: number, unit: string, target: number): void {
  const ratio = store / plain;
  console.log(`${figure}: ${Math.round(store)} vs plain ${Math.round(plain)} ${unit} (${ratio.toFixed(2)}x)`);
  rows.push({ figure, store: `${Math.round(store)} ${unit}`, plain: `${Math.round(plain)} ${unit}`, ratio: `${ratio.toFixed(2)}x`, target: `>= ${target}x`, ok: ratio >= target ? "yes" : "NO" });
}

async function withClients<T>(url: string, count: number, fn: (clients: pg.Client[]) => Promise<T>): Promise<T> {
  const clients = Array.from({ length: count }, () => new pg.Client({ connectionString: url }));
  // A server-side termination (e.g. a forced DROP DATABASE) surfaces on the awaited query.
  clients.forEach((c) => c.on("error", () => undefined));
  await Promise.all(clients.map((c) => c.connect()));
  try {
    return await fn(clients);
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

/** Seconds for `writers` concurrent loops of `appends` appends of `batch` events each. */
async function elapsed(writers: number, appends: number, batch: number, append: (writer: number, n: number, events: EventToAppend[]) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let n = 0; n < appends; n += 1) await append(w, n, Array.from({ length: batch }, (_, i) => event(i)));
    }),
  );
  return (performance.now() - started) / 1000;
}

// The machine is shared: load drifts during a run. Plain and store take turns in short rounds
// (alternating which goes first), and each side's rate is its events over its summed time.
const ROUNDS = 4;
async function interleaved(plainRound: (round: number) => Promise<[number, number]>, ourRound: (round: number) => Promise<[number, number]>): Promise<[number, number]> {
  const totals = { plain: [0, 0], ours: [0, 0] };
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? (["plain", "ours"] as const) : (["ours", "plain"] as const);
    for (const side of order) {
      const [events, seconds] = await (side === "plain" ? plainRound : ourRound)(round);
      totals[side][0] += events;
      totals[side][1] += seconds;
    }
  }
  return [totals.ours[0] / totals.ours[1], totals.plain[0] / totals.plain[1]];
}

function plainInsert(client: pg.Client, streamId: string, firstVersion: number, events: EventToAppend[]) {
  const values: unknown[] = [];
  const tuples = events.map((e, i) => {
    values.push(streamId, firstVersion + i, e.id, e.type, e.schemaVersion, JSON.stringify(e.data), JSON.stringify(e.metadata));
    const p = i * 7;
    return `($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7})`;
  });
  return client.query(`INSERT INTO plain_messages (stream_id, stream_version, message_id, type, schema_version, data, metadata) VALUES ${tuples.join(", ")}`, values);
}

async function appendThroughput(url: string, store: EventStore): Promise<void> {
  for (const [writers, batch, appends] of [
    [1, 1, 200],
    [8, 1, 80],
    [1, 10, 80],
    [8, 10, 40],
  ]) {
    const events = writers * appends * batch;
    const [ours, plain] = await withClients(url, writers, (clients) =>
      interleaved(
        async (round) => [events, await elapsed(writers, appends, batch, (w, n, e) => plainInsert(clients[w], `plain${round}-${writers}-${batch}-${w}-${n % 20}`, Math.floor(n / 20) * batch, e))],
        async (round) => [events, await elapsed(writers, appends, batch, (w, n, e) => store.append(`own${round}-${writers}-${batch}-${w}-${n % 20}`, e))],
      ),
    );
    record(`append ${batch}-event, ${writers} writer${writers > 1 ? "s" : ""}`, ours, plain, "ev/s", 0.6);
  }
}

/** 8 writers on one stream, each re-reading the version after a conflict; [successes, seconds]. */
async function hotPlain(clients: pg.Client[], stream: string, target: number, conflicts: { n: number }): Promise<[number, number]> {
  let done = 0;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      while (done < target) {
        const { rows: r } = await client.query("SELECT max(stream_version) AS v FROM plain_messages WHERE stream_id = $1", [stream]);
        const next = r[0].v === null ? 0 : Number(r[0].v) + 1;
        try {
          await plainInsert(client, stream, next, [event(next)]);
          done += 1;
        } catch (error) {
          if ((error as { code?: string }).code !== "23505") throw error;
          conflicts.n += 1;
        }
      }
    }),
  );
  return [done, (performance.now() - started) / 1000];
}

async function hotOurs(store: EventStore, stream: string, target: number, conflicts: { n: number }): Promise<[number, number]> {
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (done < target) {
        const version = await store.streamVersion(stream);
        try {
          await store.append(stream, [event(done)], { expectedVersion: version ?? "noStream" });
          done += 1;
        } catch (error) {
          if (!(error instanceof WrongExpectedVersionError)) throw error;
          conflicts.n += 1;
        }
      }
    }),
  );
  return [done, (performance.now() - started) / 1000];
}

async function hotStream(url: string, store: EventStore): Promise<void> {
  const plainConflicts = { n: 0 };
  const ourConflicts = { n: 0 };
  const [ours, plain] = await withClients(url, 8, (clients) =>
    interleaved(
      (round) => hotPlain(clients, `plain-hot-${round}`, 100, plainConflicts),
      (round) => hotOurs(store, `own-hot-${round}`, 100, ourConflicts),
    ),
  );
  record(`hot stream, 8 writers (conflicts: ${ourConflicts.n} vs plain ${plainConflicts.n})`, ours, plain, "ev/s", 0.5);
}

async function fillTo(url: string, store: EventStore, size: number): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const { rows: r } = await pool.query("SELECT count(*)::int AS n FROM messages");
  await pool.end();
  let have = r[0].n as number;
  const writers = Array.from({ length: 4 }, async (_, w) => {
    for (let n = 0; have < size; n += 1) {
      const batch = Array.from({ length: Math.min(100, size - have) }, (_, i) => event(i));
      have += batch.length;
      await store.append(`fill-${w}-${n % 100}`, batch);
    }
  });
  await Promise.all(writers);
}

async function readThroughput(url: string, store: EventStore, size: number): Promise<void> {
  await fillTo(url, store, size);
  const admin = new pg.Client({ connectionString: url });
  admin.on("error", () => undefined);
  await admin.connect();
  await admin.query("TRUNCATE plain_messages");
  await admin.query(
    "INSERT INTO plain_messages (stream_id, stream_version, message_id, type, schema_version, data, metadata, created_at) SELECT stream_id, stream_version, message_id, type, schema_version, data, metadata, created_at FROM messages ORDER BY global_position",
  );
  await admin.query("VACUUM ANALYZE plain_messages");
  await admin.query("VACUUM ANALYZE messages");
  const page = 1_000;
  const readPlain = async () => {
    let after = 0n;
    let count = 0;
    for (;;) {
      const { rows: r } = await admin.query("SELECT * FROM plain_messages WHERE global_position > $1 ORDER BY global_position LIMIT $2", [after.toString(), page]);
      count += r.length;
      if (r.length < page) return count;
      after = BigInt(r[r.length - 1].global_position);
    }
  };
  const readOurs = async () => {
    let after: LogPosition | undefined;
    let count = 0;
    for (;;) {
      const read = await store.readAll({ after, limit: page });
      // Only an empty page ends the log (a page may be cut short by bytes): one read more than plain's.
      if (read.length === 0) return count;
      count += read.length;
      after = read[read.length - 1].position;
    }
  };
  const timed = async (read: () => Promise<number>): Promise<[number, number]> => {
    const started = performance.now();
    const count = await read();
    if (count < size) throw new Error(`read ${count} of ${size} events`);
    return [count, (performance.now() - started) / 1000];
  };
  const [ours, plain] = await interleaved(
    () => timed(readPlain),
    () => timed(readOurs),
  );
  await admin.end();
  record(`readAll, ${size.toLocaleString("en")}-event log`, ours, plain, "ev/s", 0.5);
}

/** From an append's commit (its promise resolving) to a subscriber in another store instance. */
async function liveLatency(url: string, writer: EventStore): Promise<{ p50: number; p95: number }> {
  const reader = await createPostgresEventStore({ connectionString: url, migrate: false, pollIntervalMs: 1_000 });
  const count = 1_000;
  const committedAt = new Map<string, number>();
  const receivedAt = new Map<string, number>();
  const controller = new AbortController();
  const received = (async () => {
    for await (const e of reader.subscribeAll({ filter: { streamPrefixes: ["live-"] }, signal: controller.signal })) {
      receivedAt.set(e.id, performance.now());
      if (receivedAt.size === count) break;
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const ids: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const e = event(n);
    ids.push(e.id);
    await writer.append(`live-${n % 10}`, [e]);
    committedAt.set(e.id, performance.now());
    // Spread the events over time like a live system, rather than one burst.
    if (n % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await received;
  controller.abort();
  await reader.close();
  // NOTIFY can reach the subscriber before the writer has the commit acknowledgement: clamp at 0.
  const delays = ids.map((id) => Math.max(0, (receivedAt.get(id) as number) - (committedAt.get(id) as number))).sort((a, b) => a - b);
  return { p50: delays[Math.floor(count * 0.5)], p95: delays[Math.floor(count * 0.95)] };
}

async function main(): Promise<void> {
  const database = await createEventStoreTestDatabase("verdict_bench");
  const store = await createPostgresEventStore({ connectionString: database.url, maxConnections: 10 });
  try {
    await withClients(database.url, 1, ([c]) => c.query(PLAIN_TABLE));
    const only = process.env.BENCH_ONLY;
    if (!only || only === "append") await appendThroughput(database.url, store);
    if (!only || only === "hot") await hotStream(database.url, store);
    if (only) return;
    await readThroughput(database.url, store, 20_000);
    await readThroughput(database.url, store, 100_000);
    const live = await liveLatency(database.url, store);
    printTable(rows);
    console.log(`live delivery (append commit -> handler, 1,000 events, LISTEN/NOTIFY): p50 ${live.p50.toFixed(1)} ms, p95 ${live.p95.toFixed(1)} ms (target p95 < 50 ms: ${live.p95 < 50 ? "yes" : "NO"})`);
    console.log(`peak RSS ${peakRssMb()} MB`);
  } finally {
    await store.close();
    await database.drop();
  }
}

await main();
