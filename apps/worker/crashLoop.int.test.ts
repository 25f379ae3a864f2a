// A worker process that dies on one of a run's pairs (an out-of-memory kill, here SIGKILL when
// the agent is asked for q3 × gpt-5-mini), restarted by a supervisor each time, on PostgreSQL
// and Kafka. Before RunRedriven the job's attempts and the watchdog's re-drives were counted in
// memory and each start reset the stall: the run stayed RUNNING for ever, every restart
// publishing its jobs again. Needs PostgreSQL and Kafka (see worker.int.test.ts).
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, expect, it } from "vitest";
import { createPostgresEventStore } from "@verdict/infra/eventstore";
import type { EventStore } from "@verdict/domain";
import { createTestDatabase, type TestDatabase } from "../../infra/services/testDatabase.js";
import { runEnded, runEvents, seedRun, waitFor } from "./testing.js";
import { spawnWorker, type WorkerChild } from "./testingProcess.js";

const POISON = { scenario: "q3", model: "gpt-5-mini" };
const MOST_STARTS = 10;

let db: TestDatabase;
let store: EventStore;
let agent: Server;
let current: WorkerChild | null = null;
let kills = 0;

beforeAll(async () => {
  db = await createTestDatabase("verdict_worker_crashloop");
  store = await createPostgresEventStore({ connectionString: db.url });
  // The agent: answers every pair at once, except the poison one, which kills the worker asking.
  agent = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const { scenario, model } = JSON.parse(body) as { scenario: { key: string }; model: { label: string } };
      if (scenario.key === POISON.scenario && model.label === POISON.model) {
        kills += 1;
        current?.child.kill("SIGKILL");
        res.destroy();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ answer: "Order 4821 ships on Friday; tracking attached." }));
    });
  });
  await new Promise<void>((resolve) => agent.listen(0, "127.0.0.1", resolve));
  return async () => {
    current?.child.kill("SIGKILL");
    await new Promise((resolve) => agent.close(resolve));
    await store.close();
    await db.drop();
  };
});

it("a worker crash-looping on one pair ends with the run FAILED, naming the pairs without a result, and no more jobs for it", async () => {
  const env = {
    DATABASE_URL: db.url,
    VERDICT_AGENT: `http:http://127.0.0.1:${(agent.address() as AddressInfo).port}/replay`,
    VERDICT_TOPIC_PREFIX: `c${randomBytes(4).toString("hex")}.`,
    VERDICT_REPLAY_TIMEOUT_MS: "2000",
    VERDICT_WATCHDOG_STALL_MS: "4000",
  };
  const scenarios = Array.from({ length: 4 }, (_, i) => ({ key: `q${i}`, prompt: `Where is order ${i}?`, position: i }));
  await seedRun(store, { runId: "loop1", scenarios });
  let starts = 0;
  // The supervisor: a worker that died is started again a second later, while the run runs.
  while (!(await runEnded(store, "loop1")) && starts < MOST_STARTS) {
    starts += 1;
    current = spawnWorker(env);
    const ended = waitFor(() => runEnded(store, "loop1"), 60_000).then(() => "ended" as const);
    if ((await Promise.race([current.exited.then(() => "died" as const), ended])) === "died") await new Promise((r) => setTimeout(r, 1000));
  }
  expect(await runEnded(store, "loop1")).toBe(true);
  expect(starts).toBeLessThan(MOST_STARTS);
  const events = await runEvents(store, "loop1");
  expect(events.at(-1)?.type).toBe("RunFailed");
  const message = (events.at(-1)?.data as { message: string }).message;
  // The pairs the crashing worker never finished, the poison one among them; the scored ones not.
  expect(message).toMatch(/^no result for [1-8] of 8 pairs \(.*q3 × gpt-5-mini.*\) after 3 re-drives/);
  expect(events.some((e) => e.type === "RunRedriven" && (e.data as { cause: string }).cause === "restart")).toBe(true);

  // The run is over: the poison job still in Kafka is passed over, the worker no longer killed.
  const killsAtEnd = kills;
  if (current && current.child.exitCode === null && current.child.signalCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 15_000)); // past a rebalance (10 s session timeout)
    expect(kills).toBe(killsAtEnd);
    expect(current.child.exitCode ?? current.child.signalCode).toBeNull();
    current.child.kill("SIGTERM");
    await current.exited;
  }
}, 300_000);
