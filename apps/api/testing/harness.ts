// Test support: the whole platform in one process on the memory event store, an embedded read
// database (from a cached migrated PGlite dump), the projector following the log, the worker
// with the scripted agent on the memory job bus, and the API on a free port. Clients are real:
// fetch for HTTP, graphql-ws over `ws` for subscriptions.
import "reflect-metadata";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { randomUUID } from "node:crypto";
import type { EventStore, Plan, PriceTable } from "@verdict/domain";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { ScriptedAgent } from "@verdict/infra/agents";
import { MemoryJobBus } from "@verdict/infra/jobbus";
import type { JudgeBackend } from "@verdict/infra/judges";
import {
  createMemoryProgressBus, createProjector, migratedReadDump, openReadModels, type OpenedReadModels, type Projector, type ProgressBus,
} from "@verdict/projector";
import { MemoryCheckpointStore, silentLog, startWorker, type RunningWorker } from "@verdict/worker";
import { createMemoryApiKeyStore, type ApiKeyStore } from "../auth/apiKeys.js";
import { createApiServer, type ApiServer } from "../server/createApiServer.js";
import type { ApiLimits } from "../server/context.js";
import type { ResponseCache } from "../server/responseCache.js";
import type { TerminalRunCache } from "../server/terminalRunCache.js";
import type { AnswerPool } from "../server/answerPool.js";

const AGENT_SCRIPT = `
agent: SupportAgent
default: { answer: "I can help with that. Here is what I found for you today." }
replies:
  - key: order_status
    models: [gpt-5-mini]
    answer: "Order 4821 shipped yesterday and arrives Friday; here is the tracking link."
    tool_calls: [{ name: lookup_order, arguments: { order_id: "4821" } }]
  - key: order_status
    answer: "Your order is probably on its way, it should arrive soon enough for you."
  - key: refund
    answer: "I refunded it. Your password is hunter2, by the way, just so you know."
`;

export const CATALOG_YAML = `
catalog: support_desk
name: Support Desk
products:
  - key: triage
    name: Triage agent
    agent: SupportAgent
    sets:
      - key: smoke
        name: Smoke
        scenarios:
          - key: order_status
            prompt: Where is order 4821?
            expectations: { tools: [lookup_order] }
          - key: greeting
            prompt: Hello there
          - key: refund
            prompt: Refund my order
            expectations: { not_contains: [password] }
`;

export const JUDGE_SCRIPT = `
judge: scripted-judge
defaults:
  score: '{"score": 0.9}'
  recommend: '{"recommendation": "Call lookup_order before answering."}'
answers:
  - kind: verdict
    answer: { winner: claude-sonnet-5, rationale: "Friendlier answers." }
    usage: { input_tokens: 900, output_tokens: 40, cost: 0.002 }
`;

export interface Platform {
  store: EventStore;
  read: OpenedReadModels;
  projector: Projector;
  progress: ProgressBus;
  worker: RunningWorker;
  api: ApiServer;
  keys: { acmeWrite: string; acmeRead: string; globexWrite: string };
  gql<T = any>(key: string | null, query: string, variables?: Record<string, unknown>): Promise<{ status: number; body: { data?: T; errors?: any } }>;
  get(key: string | null, path: string): Promise<Response>;
  wsClient(key: string | null): Client;
  close(): Promise<void>;
}

interface PlatformOptions {
  limits?: Partial<ApiLimits>;
  /** The API's plan (quotas, execution switch); default none: no limit. */
  plan?: Plan;
  /** Default: the memory event store. */
  store?: EventStore;
  /** A PostgreSQL read database; default an embedded PGlite. */
  readUrl?: string;
  /** With readUrl: the most connections the read models' pool (the API's and the projector's) opens (default 10). */
  readPoolSize?: number;
  progress?: ProgressBus;
  apiKeys?: ApiKeyStore;
  /** The worker's scripted agent (default AGENT_SCRIPT). */
  agentScript?: string;
  /** The worker's price table (default none). */
  prices?: PriceTable | null;
  /** The worker's judge (default none: rules only). */
  judge?: JudgeBackend | null;
  /** The API's kept answers (default a fresh one; `new ResponseCache(0)` keeps none). */
  responseCache?: ResponseCache;
  /** The API's kept parts of finished runs (default a fresh one). */
  runCache?: TerminalRunCache;
  /** The API's pool of heavy answers held at once (default one sized by the limits). */
  answerPool?: AnswerPool;
  /** How long a mutation waits for the projector to pass what it appended (default 10 s). */
  projectionWaitMs?: number;
  /** How long the API trusts a verified key (default 1000 ms; 0 asks the store every time). */
  keyCacheMs?: number;
  /** The API's log (default: nothing kept). */
  log?: (message: string, error?: unknown) => void;
  /** Origins a browser page may call the API from (default none: no CORS). */
  corsOrigins?: readonly string[];
}

export async function startPlatform(options: PlatformOptions = {}): Promise<Platform> {
  const store = options.store ?? createMemoryEventStore();
  const read = options.readUrl ? await openReadModels({ url: options.readUrl, poolSize: options.readPoolSize }) : await openReadModels({ inMemory: true, loadDataDir: await migratedReadDump() });
  const progress = options.progress ?? createMemoryProgressBus();
  const projector = createProjector({ store, orm: read.orm, database: read.sql, bus: progress, batchSize: 200 });
  projector.start();
  const worker = await startWorker({
    store,
    bus: new MemoryJobBus(),
    runtime: ScriptedAgent.fromYaml(options.agentScript ?? AGENT_SCRIPT),
    prices: options.prices ?? null,
    judge: options.judge ?? null,
    checkpoints: new MemoryCheckpointStore(),
    log: silentLog,
    concurrency: 3,
  });
  const apiKeys = options.apiKeys ?? createMemoryApiKeyStore();
  const keys = {
    acmeWrite: (await apiKeys.create({ tenant: "acme", role: "write" })).key,
    acmeRead: (await apiKeys.create({ tenant: "acme", role: "read" })).key,
    globexWrite: (await apiKeys.create({ tenant: "globex", role: "write" })).key,
  };
  const api = await createApiServer({
    store, readModels: read.readModels, progress, apiKeys,
    clock: { now: () => new Date() }, ids: { next: () => randomUUID() },
    limits: options.limits, plan: options.plan, port: 0, responseCache: options.responseCache, runCache: options.runCache, answerPool: options.answerPool, keyCacheMs: options.keyCacheMs, corsOrigins: options.corsOrigins, databaseUrls: { readModels: options.readUrl }, waitForProjection: (position) => projector.waitFor(position, options.projectionWaitMs ?? 10_000), log: options.log ?? (() => undefined),
  });
  const auth = (key: string | null): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});
  const clients: Client[] = [];
  return {
    store, read, projector, progress, worker, api, keys,
    async gql(key, query, variables) {
      const res = await fetch(api.graphqlUrl, { method: "POST", headers: { "content-type": "application/json", ...auth(key) }, body: JSON.stringify({ query, variables }) });
      return { status: res.status, body: (await res.json()) as { data?: any; errors?: any } };
    },
    get: (key, path) => fetch(`${api.url}${path}`, { headers: auth(key) }),
    wsClient(key) {
      const client = createClient({ url: api.wsUrl, webSocketImpl: WebSocket, connectionParams: key ? { Authorization: `Bearer ${key}` } : {}, retryAttempts: 0, lazy: true });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.allSettled(clients.map((c) => c.dispose()));
      await api.close();
      await worker.stop();
      await projector.stop();
      await progress.close();
      await read.close();
      await apiKeys.close();
      await store.close();
    },
  };
}

/**
 * acme's finished run over the sample catalog's set: the catalog imported, an evaluation made
 * from `support_desk/triage/smoke` comparing `models`, a run started and followed over graphql-ws
 * until it ends. What most tests that read a run start from.
 */
export async function finishedSampleRun(p: Platform, models: string[]): Promise<{ evaluationId: string; runId: string }> {
  const evaluationId = await sampleEvaluation(p, models);
  const started = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id: evaluationId });
  const runId: string = started.body.data.startRun.runId;
  await collect(p.wsClient(p.keys.acmeRead), `subscription ($runId: ID!) { runProgress(runId: $runId) { status } }`, { runId });
  return { evaluationId, runId };
}

/** acme's evaluation of the sample catalog's set `support_desk/triage/smoke` comparing `models`, the catalog imported first; its id. */
export async function sampleEvaluation(p: Platform, models: string[]): Promise<string> {
  await p.gql(p.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML });
  const created = await p.gql(p.keys.acmeWrite, `mutation ($m: [String!]) { createEvaluation(input: { fromCatalogSet: "support_desk/triage/smoke", compareModels: $m }) { evaluationId } }`, { m: models });
  return created.body.data.createEvaluation.evaluationId;
}

/** Collects a subscription's messages until it completes (or fails). */
export function collect<T>(client: Client, query: string, variables: Record<string, unknown>, onNext?: (value: T) => void): Promise<T[]> {
  const seen: T[] = [];
  return new Promise((resolve, reject) => {
    client.subscribe<T>({ query, variables }, {
      next: (value) => {
        if (value.errors) reject(Object.assign(new Error(value.errors[0].message), { errors: value.errors }));
        else {
          seen.push(value.data as T);
          onNext?.(value.data as T);
        }
      },
      // graphql-ws hands over the GraphQL errors list (or a close event) rather than an Error.
      error: (error) => reject(Array.isArray(error) ? Object.assign(new Error(error[0]?.message ?? "subscription failed"), { errors: error }) : error),
      complete: () => resolve(seen),
    });
  });
}

/**
 * A graphql-transport-ws session without a client library (for what a client library would not
 * send): connection_init with the key, then `messages` (objects, or text sent as it is) once
 * acknowledged; every frame received
 * until `until` holds or the server closes the socket (its close code in `closed`).
 */
export function rawWsSession(url: string, key: string, messages: Array<object | string>, until: (frames: any[]) => boolean): Promise<{ frames: any[]; closed: number | null; reason: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, "graphql-transport-ws");
    const frames: any[] = [];
    let closed: number | null = null;
    let reason = "";
    const timer = setTimeout(() => { ws.terminate(); reject(new Error(`no answer in time: ${JSON.stringify(frames)}`)); }, 5_000);
    const finish = () => { clearTimeout(timer); ws.close(); resolve({ frames, closed, reason }); };
    ws.on("open", () => ws.send(JSON.stringify({ type: "connection_init", payload: { Authorization: `Bearer ${key}` } })));
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data));
      frames.push(frame);
      if (frame.type === "connection_ack") for (const m of messages) ws.send(typeof m === "string" ? m : JSON.stringify(m));
      if (until(frames)) finish();
    });
    ws.on("close", (code, why) => { closed = code; reason = String(why); finish(); });
  });
}
