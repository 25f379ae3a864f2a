// The distributed platform as separate processes on one PostgreSQL database (events, read models,
// API keys, worker checkpoints) and the local Kafka broker, topics and groups under a prefix of
// their own: the API, the projector, and as many workers as a test starts. Each app runs as
// production runs it, `node scripts/app.mjs <app>` (bundled, plain node); the apps' own
// integration tests run them from source under tsx.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { ROOT, spawnApp, type AppProcess } from "./processes.js";

export const BROKERS = process.env.KAFKA_BROKERS || "127.0.0.1:9092";

export interface DistributedEnv {
  databaseUrl: string;
  topicPrefix: string;
  agentPath: string;
  judgePath: string;
}

export function distributedEnv(databaseUrl: string, agentPath: string): DistributedEnv {
  return {
    databaseUrl,
    topicPrefix: `e2e${randomBytes(4).toString("hex")}.`,
    agentPath,
    judgePath: join(ROOT, "examples", "support", "judge.yaml"),
  };
}

/** What `npm run <app> -- args` runs, with node's own flags (a CPU profile) first. */
function spawnBundled(name: string, app: "api" | "projector" | "worker", args: string[], env: Record<string, string | undefined>, nodeArgs: string[] = []): AppProcess {
  return spawnApp(name, [...nodeArgs, "scripts/app.mjs", app, ...args], env, { tsx: false });
}

function common(env: DistributedEnv): Record<string, string | undefined> {
  return { DATABASE_URL: env.databaseUrl, VERDICT_READ_DATABASE_URL: undefined, KAFKA_BROKERS: BROKERS };
}

/** The API on a free port; resolves once it prints its GraphQL URL. */
export async function startApi(env: DistributedEnv, nodeArgs: string[] = [], extraEnv: Record<string, string> = {}): Promise<{ app: AppProcess; graphqlUrl: string }> {
  const app = spawnBundled("api", "api", [], { ...common(env), PORT: "0", ...extraEnv }, nodeArgs);
  const [, graphqlUrl] = await app.waitForOutput(/GraphQL at (http:\/\/\S+\/graphql)/, 90_000);
  return { app, graphqlUrl };
}

export async function startProjector(env: DistributedEnv, name = "projector", nodeArgs: string[] = []): Promise<AppProcess> {
  const app = spawnBundled(name, "projector", ["run"], common(env), nodeArgs);
  await app.waitForOutput(/projector following the log/, 90_000);
  return app;
}

/** A worker with every role; `overrides` replaces any of its environment (the bench's concurrency, judge). */
export async function startWorkerProcess(env: DistributedEnv, name: string, overrides: Record<string, string> = {}, nodeArgs: string[] = []): Promise<AppProcess> {
  const app = spawnBundled(name, "worker", [], {
    ...common(env),
    VERDICT_AGENT: `scripted:${env.agentPath}`,
    VERDICT_JUDGE: `scripted:${env.judgePath}`,
    VERDICT_TOPIC_PREFIX: env.topicPrefix,
    // Pairs spread over partitions, so both workers replay the same run.
    VERDICT_REPLAY_KEY: "pair",
    VERDICT_WORKER_CONCURRENCY: "2",
    VERDICT_KAFKA_PARTITIONS: "4",
    ...overrides,
  }, nodeArgs);
  await app.waitForOutput(/started: dispatcher, replay, complete/, 90_000);
  return app;
}

/** An API key made with the API's own CLI (`apps/api/auth/createKey.ts`), printed once. */
export async function createApiKey(env: DistributedEnv, tenant: string, role: "read" | "write"): Promise<string> {
  const app = spawnApp(`createKey ${tenant}`, ["apps/api/auth/createKey.ts", tenant, role, "e2e"], common(env));
  const { code } = await app.exited;
  if (code !== 0) throw new Error(`createKey ${tenant} exited ${code}: ${app.output()}`);
  const key = app.output().trim().split("\n").at(-1)!.trim();
  if (!key || /\s/.test(key)) throw new Error(`createKey printed no key: ${app.output()}`);
  return key;
}

/** `projector rebuild` into another read database; the checksum it prints. */
export async function rebuildChecksum(env: DistributedEnv, readUrl: string): Promise<{ rebuilt: number; checksum: Record<string, { rows: number; md5: string }> }> {
  const app = spawnBundled("projector rebuild", "projector", ["rebuild"], { ...common(env), VERDICT_READ_DATABASE_URL: readUrl });
  const { code } = await app.exited;
  const out = app.output();
  if (code !== 0) throw new Error(`projector rebuild exited ${code}: ${out}`);
  return JSON.parse(out.slice(out.indexOf("{"), out.lastIndexOf("}") + 1));
}
