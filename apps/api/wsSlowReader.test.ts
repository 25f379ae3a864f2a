// A graphql-ws client that stops reading holds the server to what its socket has taken: each
// runEvents subscription queued the run's whole history (a catch-up needs no new events) while
// graphql-ws waited for the stalled socket, and 3 sockets x 100 subscriptions of a run of 600
// 30 KB replays took the API from 49 MB to its heap limit in 15 s.
import { afterAll, beforeAll, expect, it } from "vitest";
import WebSocket from "ws";
import type { EventStore, SubscribeAllOptions } from "@verdict/domain";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { startPlatform, type Platform } from "./testing/harness.js";

const PAIRS = 120;
const ANSWER = "x".repeat(200_000);

/** The memory store, counting the replays (the large events) its subscriptions have handed out. */
function countingStore(): { store: EventStore; pulled: () => number; pageSizes: Array<number | undefined> } {
  const store = createMemoryEventStore();
  let replays = 0;
  const pageSizes: Array<number | undefined> = [];
  const counted: EventStore = {
    ...store,
    async *subscribeAll(options?: SubscribeAllOptions) {
      pageSizes.push(options?.pageSize);
      for await (const event of store.subscribeAll(options)) {
        if (event.type === "ReplayRecorded") replays++;
        yield event;
      }
    },
  };
  return { store: counted, pulled: () => replays, pageSizes };
}

const counting = countingStore();
/** What the API logged. */
const logged: string[] = [];
let p: Platform;
let runId: string;
beforeAll(async () => {
  p = await startPlatform({ store: counting.store, log: (message, error) => logged.push(`${message}: ${String(error)}`) });
  const scenarios = Array.from({ length: PAIRS }, (_, i) => ({ key: `s${i}`, prompt: `Where is order ${i}?` }));
  const created = await p.gql(p.keys.acmeWrite, `mutation ($s: JSON) { createEvaluation(input: { agent: "A", name: "Slow reader", scenarios: $s, compareModels: ["gpt-5-mini"] }) { evaluationId } }`, { s: scenarios });
  // External and left open: only the catch-up is sent, nothing new arrives.
  const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: created.body.data.createEvaluation.evaluationId });
  runId = started.body.data.startRun.runId;
  for (let i = 0; i < PAIRS; i++) {
    const recorded = await p.gql(p.keys.acmeWrite, `mutation ($r: ID!, $s: String!, $a: String!) { recordReplay(runId: $r, scenarioKey: $s, modelLabel: "gpt-5-mini", replay: { answer: $a }) { scenarioKey } }`, { r: runId, s: `s${i}`, a: ANSWER });
    expect(recorded.body.errors).toBeUndefined();
  }
}, 120_000);
afterAll(async () => {
  await p?.close();
});

/** A socket that subscribes `count` times to the run's events, then stops reading. */
function stalledSocket(count: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(p.api.wsUrl, "graphql-transport-ws");
    ws.on("error", reject);
    ws.on("open", () => ws.send(JSON.stringify({ type: "connection_init", payload: { Authorization: `Bearer ${p.keys.acmeRead}` } })));
    ws.once("message", () => {
      for (let i = 0; i < count; i++) {
        ws.send(JSON.stringify({ id: String(i), type: "subscribe", payload: { query: `subscription ($r: ID!) { runEvents(runId: $r) { type position data } }`, variables: { r: runId } } }));
      }
      (ws as unknown as { _socket: { pause(): void } })._socket.pause();
      resolve(ws);
    });
  });
}

it("reads a run's events no further than a client that stopped reading has taken", async () => {
  const subscriptions = 20;
  const ws = await stalledSocket(subscriptions);
  try {
    // Long enough for an unbounded queue to have taken the whole run for every subscription.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // Per subscription: a queue of 16 events, one being sent, and its share of what the socket
    // and the kernel buffer (20 MB of the run on this socket fill them).
    expect(counting.pulled()).toBeLessThan((subscriptions * PAIRS) / 2);
    // And each reads small pages: a page read ahead is held whole until its events are taken.
    const paged = counting.pageSizes.filter((size) => size !== undefined);
    expect(paged).toHaveLength(subscriptions);
    for (const size of paged) expect(size).toBeLessThanOrEqual(32);
  } finally {
    ws.terminate();
  }
}, 30_000);

it("logs nothing when a client that stopped reading goes away with its subscriptions' answers unsent", async () => {
  const ws = await stalledSocket(20);
  // Until every subscription has an answer its socket has not taken.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  logged.length = 0;
  // Gone with unread data: the connection is reset, and every pending send fails (ECONNRESET, EPIPE).
  ws.terminate();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(logged).toEqual([]);
}, 30_000);

