// `verdict start` on PostgreSQL + Kafka whose start fails part way, as `npm start -- --exit` runs
// it (node scripts/start.mjs, the CLI bundled). The broker refuses to create the replay topic: a
// topic whose name differs only by "." for "_" exists (Kafka refuses such a collision). The worker's
// dispatcher was leading by then and was never stopped: once the store closed it re-subscribed in a
// loop that held the thread, and the process did not exit (killed at 150 s); a broker out of reach
// did the same once kafkajs gave up. Needs PostgreSQL and Kafka.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Admin } from "kafkajs";
import { loadKafkajs } from "@verdict/infra/lazy";
import { kafkaBrokers } from "../../infra/services/kafkaBrokers.js";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const brokers = kafkaBrokers();
const prefix = `sf${randomBytes(4).toString("hex")}`;
/** Kafka refuses "<prefix>verdict.replay" while this one exists. */
const CLASHING = `${prefix}verdict_replay`;
/** How long the failed start may take to end: it took ~3.5 s on a busy 2-CPU machine. */
const EXIT_WITHIN_MS = 30_000;

let db: TestDatabase;
let home: string;
let admin: Admin;

beforeAll(async () => {
  db = await createTestDatabase("verdict_start_kafka");
  home = await mkdtemp(join(tmpdir(), "verdict-start-kafka-"));
  const { Kafka, logLevel } = loadKafkajs();
  admin = new Kafka({ clientId: "verdict-start-kafka-test", brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic: CLASHING, numPartitions: 1, replicationFactor: 1 }] });
});

afterAll(async () => {
  await admin?.deleteTopics({ topics: [CLASHING] }).catch(() => undefined);
  await admin?.disconnect();
  await db?.drop();
  if (home) await rm(home, { recursive: true, force: true });
});

/** `npm start -- --exit` in a child; killed past `withinMs` (then `code` is null). */
function start(env: NodeJS.ProcessEnv, withinMs: number): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const began = Date.now();
  const child = spawn(process.execPath, ["scripts/start.mjs", "start", "--exit"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const killer = setTimeout(() => child.kill("SIGKILL"), withinMs);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, ms: Date.now() - began });
    }),
  );
}

function childEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, VERDICT_HOME: home, PORT: "0", ...extra };
  for (const name of Object.keys(env)) if (name.startsWith("VITEST") || name === "TSX_TSCONFIG_PATH") delete env[name];
  return env;
}

describe("verdict start on Kafka that refuses to create a topic", () => {
  it("ends promptly with one line naming the topic, the reason and what to change, exit 1", async () => {
    const env = childEnv({ DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(","), VERDICT_TOPIC_PREFIX: prefix });
    const { code, stdout, stderr, ms } = await start(env, EXIT_WITHIN_MS);
    expect(code, `still running after ${EXIT_WITHIN_MS} ms (killed); stderr: ${stderr}`).toBe(1);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
    expect(stdout).toBe("verdict: starting (PostgreSQL (DATABASE_URL), Kafka at " + brokers.join(",") + ")\n");
    expect(stderr).toBe(
      `verdict start failed: Kafka broker${brokers.length === 1 ? "" : "s"} ${brokers.join(", ")} refused to create topic "${prefix}verdict.replay" ` +
        "(6 partitions, replication factor 1): The request attempted to perform an operation on an invalid topic (INVALID_TOPIC_EXCEPTION). " +
        "Create the topic on the broker, or set VERDICT_TOPIC_PREFIX to give this deployment's topics other names\n",
    );
  }, 60_000);

  it("a broker out of reach ends it once kafkajs's retries are spent, naming KAFKA_BROKERS, exit 4", async () => {
    // Nothing listens on port 1: kafkajs tries 8 times from 100 ms, doubling (~30 s in all).
    const env = childEnv({ DATABASE_URL: db.url, KAFKA_BROKERS: "127.0.0.1:1", VERDICT_TOPIC_PREFIX: prefix });
    const { code, stderr } = await start(env, 90_000);
    expect(code, `still running after 90 s (killed); stderr: ${stderr}`).toBe(4);
    expect(stderr.trimEnd().split("\n").at(-1)).toBe(
      "KAFKA_BROKERS: cannot reach Kafka at 127.0.0.1:1 (Connection error: connect ECONNREFUSED 127.0.0.1:1). Start the broker, or set " +
        "KAFKA_BROKERS to brokers that are reachable (host:port, comma separated), or unset it for the in-memory job bus.",
    );
  }, 120_000);
});
