// One API key's graphql-ws operations are bounded over all its sockets, not only per socket:
// 10 sockets x 100 runEvents subscriptions of one read key stalled every request to an embedded
// API for 17 s, other keys' included.
import { afterAll, beforeAll, expect, it } from "vitest";
import WebSocket from "ws";
import { startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
let runId: string;
beforeAll(async () => {
  p = await startPlatform({ limits: { maxSocketOperations: 3, maxKeyOperations: 4 } });
  const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "Watched", scenarios: [{ key: "where", prompt: "Where is my order?" }], compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
  // External, nothing recorded: it stays RUNNING, so its subscriptions stay open.
  const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id, external: true) { runId } }`, { id: created.body.data.createEvaluation.evaluationId });
  runId = started.body.data.startRun.runId;
}, 60_000);
afterAll(async () => {
  await p?.close();
});

interface Session {
  frames: Array<{ id?: string; type: string; payload?: unknown }>;
  subscribe(id: string): void;
  /** Resolves with the first frame for `id`. */
  answer(id: string): Promise<{ type: string; payload?: unknown }>;
  close(): Promise<void>;
}

/** An acknowledged graphql-ws socket for `key`, kept open until closed. */
function session(key: string): Promise<Session> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(p.api.wsUrl, "graphql-transport-ws");
    const frames: Session["frames"] = [];
    const waiters: Array<() => void> = [];
    ws.on("error", reject);
    ws.on("open", () => ws.send(JSON.stringify({ type: "connection_init", payload: { Authorization: `Bearer ${key}` } })));
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data));
      frames.push(frame);
      for (const wake of waiters.splice(0)) wake();
      if (frame.type !== "connection_ack") return;
      resolve({
        frames,
        subscribe: (id) => ws.send(JSON.stringify({ id, type: "subscribe", payload: { query: `subscription ($r: ID!) { runProgress(runId: $r) { status } }`, variables: { r: runId } } })),
        answer: async (id) => {
          for (;;) {
            const found = frames.find((f) => f.id === id);
            if (found) return found;
            await new Promise<void>((wake) => waiters.push(wake));
          }
        },
        close: () => new Promise<void>((done) => {
          if (ws.readyState === ws.CLOSED) return done();
          ws.once("close", () => done());
          ws.close();
        }),
      });
    });
  });
}

it("refuses an operation past maxKeyOperations on another socket of the same key, serves other keys, and counts a closed socket's no more", async () => {
  const first = await session(p.keys.acmeRead);
  const second = await session(p.keys.acmeRead);
  const other = await session(p.keys.acmeWrite);
  try {
    for (const id of ["1", "2", "3"]) first.subscribe(id);
    for (const id of ["1", "2", "3"]) expect(await first.answer(id)).toMatchObject({ type: "next", payload: { data: { runProgress: { status: "RUNNING" } } } });
    second.subscribe("4");
    expect(await second.answer("4")).toMatchObject({ type: "next" });
    second.subscribe("5");
    expect(await second.answer("5")).toEqual({
      id: "5",
      type: "error",
      payload: [{ message: "at most 4 operations may be going at once for one API key, over all its sockets (maxKeyOperations); complete one first", extensions: { code: "VALIDATION" } }],
    });
    // Another key is not held to acme's read key's count.
    other.subscribe("1");
    expect(await other.answer("1")).toMatchObject({ type: "next" });
    // Its first socket gone, the key has room again.
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    second.subscribe("6");
    expect(await second.answer("6")).toMatchObject({ type: "next" });
  } finally {
    await Promise.all([first.close(), second.close(), other.close()]);
  }
});
