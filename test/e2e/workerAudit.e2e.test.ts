// The worker as a deployment runs it (`apps/worker/main.ts` on PostgreSQL and Kafka) against bad
// input and with secrets in its settings: an http agent behind user:password that answers
// garbage, a 500 and a real replay, and bytes on verdict.replay that are not jobs, ahead of the
// run's own jobs on its partition. The run completes, each failure is recorded as a clear
// run_error, and neither the agent's password nor the database's appears in any event or in the
// process's output. Needs `bash infra/services/postgres.sh` and `bash infra/services/kafka.sh start`.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresEventStore } from "@verdict/infra/eventstore";
import type { EventStore } from "@verdict/domain";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { runEnded, runEvents, pairEvents, seedRun } from "../../apps/worker/testing.js";
import { BROKERS } from "./support/platformProcesses.js";
import { spawnApp, stopApp, tail, waitFor, type AppProcess } from "./support/processes.js";

const AGENT_PASSWORD = "AgentS3cret-" + randomBytes(4).toString("hex");
const DB_PASSWORD = "DbS3cret-" + randomBytes(4).toString("hex");

describe("worker process: poison messages, a broken http agent, secrets in its settings", () => {
  let db: TestDatabase;
  let store: EventStore;
  let server: Server;
  let worker: AppProcess | null = null;
  const authorizations: Array<string | undefined> = [];

  beforeAll(async () => {
    db = await createTestDatabase("verdict_worker_audit");
    store = await createPostgresEventStore({ connectionString: db.url });
    // One scenario each: garbage for order_status, a 500 for greeting, a replay for refund.
    server = createServer((req: IncomingMessage, res) => {
      let raw = "";
      req.on("data", (chunk) => (raw += chunk));
      req.on("end", () => {
        authorizations.push(req.headers.authorization);
        const key = (JSON.parse(raw) as { scenario: { key: string } }).scenario.key;
        if (key === "order_status") {
          res.writeHead(200, { "content-type": "application/json" });
          res.end("<html>not a replay</html>");
        } else if (key === "greeting") {
          res.writeHead(500);
          res.end("boom");
        } else {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ answer: "I refunded order 4821; the money is back within five days." }));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });

  afterAll(async () => {
    if (worker) await stopApp(worker);
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await store?.close();
    await db?.drop();
  });

  it("completes the run, records clear run errors, and shows no password anywhere", async () => {
    const prefix = `audit${randomBytes(4).toString("hex")}.`;
    const databaseUrl = new URL(db.url);
    databaseUrl.password = DB_PASSWORD; // the local cluster trusts 127.0.0.1; the password is only carried
    const port = (server.address() as AddressInfo).port;
    worker = spawnApp("worker", ["apps/worker/main.ts"], {
      DATABASE_URL: databaseUrl.toString(),
      KAFKA_BROKERS: BROKERS,
      VERDICT_AGENT: `http:http://alice:${AGENT_PASSWORD}@127.0.0.1:${port}/replay`,
      VERDICT_JUDGE: "none",
      VERDICT_TOPIC_PREFIX: prefix,
      VERDICT_KAFKA_PARTITIONS: "2",
    });
    await worker.waitForOutput(/started: dispatcher, replay, complete/, 60_000);

    const producer = new Kafka({ clientId: `audit-${prefix}`, brokers: BROKERS.split(","), logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
    try {
      // Ahead of the run's jobs, on its partition (replay jobs are keyed by run id).
      await producer.send({ topic: `${prefix}verdict.replay`, messages: [{ key: "audit1", value: `{"run_id": "audit1", "password": "${AGENT_PASSWORD}"` }, { key: "audit1", value: null }, { key: "audit1", value: "null" }] });
    } finally {
      await producer.disconnect();
    }
    await seedRun(store, { runId: "audit1" });
    await waitFor("the run to end", () => runEnded(store, "audit1"), 90_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${tail(worker!.output())}`);
    });

    expect((await runEvents(store, "audit1")).at(-1)?.type).toBe("RunCompleted");
    // Pairs: scenario-major over 2 models (order_status, greeting, refund).
    const replayOf = async (n: number) => ((await pairEvents(store, "audit1", n))[0].data as { replay: { answer?: string | null; error?: string | null } }).replay;
    expect((await replayOf(0)).error).toBe("HttpAgentError: agent answered a body that is not JSON");
    expect((await replayOf(2)).error).toBe("HttpAgentError: agent answered HTTP 500");
    expect(await replayOf(4)).toMatchObject({ answer: "I refunded order 4821; the money is back within five days." });
    expect(new Set(authorizations)).toEqual(new Set([`Basic ${Buffer.from(`alice:${AGENT_PASSWORD}`).toString("base64")}`]));

    const output = worker.output();
    expect(output.match(/dropped: verdict\.replay job: \(message\): [^\n]+/g)?.sort()).toEqual([
      "dropped: verdict.replay job: (message): Invalid input: expected object, received null",
      "dropped: verdict.replay job: (message): empty message",
      expect.stringMatching(/^dropped: verdict\.replay job: \(message\): not JSON \(\d+ bytes\)$/),
    ]);
    const events = JSON.stringify(await store.readAll({ limit: 10_000 }), (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value));
    for (const secret of [AGENT_PASSWORD, DB_PASSWORD]) {
      expect(output).not.toContain(secret);
      expect(events).not.toContain(secret);
    }
  }, 150_000);
});
