// `npm run bench -- platform`: the platform's speed on one shape of run, measured from outside as
// a client sees it. A 1,000-scenario x 3-model run, scripted agent at zero latency, three rule
// checks per answer (contains, not_contains, min_length), judge none:
//   embedded     one process (this file re-run as `--embedded-child`, bundled on plain node as
//                `npm start` runs the CLI): PGlite event store and read models under a temp
//                VERDICT_HOME, in-memory job bus, projector, worker, API, as `verdict start`
//                wires them (apps/cli/platform.ts, services.ts)
//   distributed  PostgreSQL (a fresh database) + Kafka, api, projector and 2 workers as processes,
//                each bundled on plain node as `npm run api|projector|worker` runs it (scripts/app.mjs)
// For each: wall time from the startRun request to RunCompleted's recorded_at and results/s; peak
// RSS of every process (VmHWM from /proc, read just before it is stopped); progress delivered to a
// graphql-ws subscriber after the result's append (the message's latest result, and the oldest
// result the message newly counts); the `run` query with every result at 20 concurrent clients,
// each request timed to its answer's last byte (and, beside it, with the answer decoded too); the
// CPU the platform's processes spend on the run. Clients run in this process, not in the servers'.
// The machine is shared: the load average is printed with the figures. The embedded mode runs in
// VERDICT_BENCH_RUNS fresh processes (default 3; the median run's figures are judged against the
// targets) and, in each, times a second run too (VERDICT_BENCH_WARM=0 skips it).
// VERDICT_BENCH_SCENARIOS=N changes the size; VERDICT_BENCH_CPU_PROF=dir
// writes a V8 CPU profile of every server process into dir; VERDICT_BENCH_ONLY=embedded|distributed;
// VERDICT_BENCH_WORKER_CONCURRENCY (default 4, as `verdict start` and the worker's default);
// VERDICT_BENCH_PARTITIONS (default 6: partitions of the topics the distributed workers create);
// VERDICT_CHILD_NODE_ENV=production runs the servers with NODE_ENV=production.
// The distributed mode starts PostgreSQL and the local Kafka broker first when they are down
// (infra/services, as `npm test` does), before anything is timed.
// The baseline: promptfoo 0.120 on the same shape, run first (bench/promptfoo/baseline.ts), when
// bench/promptfoo/install.sh has installed it; VERDICT_BENCH_BASELINE=0 skips it.
import "reflect-metadata";
import { execSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { apiClient, PROGRESS_SUBSCRIPTION, wireText } from "../test/e2e/support/apiClient.js";
import { peakRssMbOf, ROOT, spawnApp, stopApp, type AppProcess } from "../test/e2e/support/processes.js";
import { promptfooBaseline, promptfooInstalled, type PromptfooBaseline } from "./promptfoo/baseline.js";

const SCENARIOS = Number(process.env.VERDICT_BENCH_SCENARIOS ?? 1000);
/** Fresh embedded processes measured: a single run on this shared machine swings 20-30%. */
const EMBEDDED_RUNS = Math.max(1, Number(process.env.VERDICT_BENCH_RUNS ?? 3));
/** Also time a second run in each embedded process (VERDICT_BENCH_WARM=0 skips it). */
const WARM_RUN = process.env.VERDICT_BENCH_WARM !== "0";
/**
 * Runs in each embedded process, the first included (VERDICT_BENCH_RUNS_PER_PROCESS, default 2;
 * 1 with VERDICT_BENCH_WARM=0): more show whether a long-lived process keeps growing.
 */
const RUNS_PER_PROCESS = WARM_RUN ? Math.max(1, Number(process.env.VERDICT_BENCH_RUNS_PER_PROCESS ?? 2)) : 1;
const MODELS = ["echo-a", "echo-b", "echo-c"];
const PAIRS = SCENARIOS * MODELS.length;
const CLIENTS = 20;
const REQUESTS_PER_CLIENT = 10;
const ANSWER = "Your order 4821 ships on Friday; here is the tracking link for it.";
const AGENT_YAML = `agent: BenchAgent\ndefault: { answer: "${ANSWER}" }\n`;
const CRITERIA = [
  { key: "mentions_order", type: "contains", config: { pattern: "order" } },
  { key: "no_apology", type: "not_contains", config: { pattern: "sorry" } },
  { key: "length", type: "min_length", config: { chars: 20 } },
];
const RESULTS_QUERY = `query ($id: ID!) { run(id: $id) { status results { edges { node { scenarioKey modelLabel status score fault } } } } }`;
const SUMMARY_QUERY = `query ($id: ID!) { run(id: $id) { status progress { completed total passed failed errored } models { label summary { passRate } } } }`;
const profileDir = process.env.VERDICT_BENCH_CPU_PROF;
const workerConcurrency = process.env.VERDICT_BENCH_WORKER_CONCURRENCY ?? "4"; // the worker's default
// On Kafka a worker takes up to concurrency x 8 of a partition's batch at once (apps/worker/kafkaBatchBus.ts).
const partitions = process.env.VERDICT_BENCH_PARTITIONS ?? "6"; // the worker's default
const nodeArgs = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];

interface Figures {
  mode: string;
  wallMs: number;
  startRunMs: number;
  runStartedAtMs: number;
  resultsPerSecond: number;
  /** CPU time of the platform's processes (all of them) from startRun until the subscriber saw the run completed: steadier than wall time on a shared machine. */
  runCpuMs: number;
  /** Minor page faults of the platform's processes over the same span (first touches of fresh memory). */
  runMinorFaults: number;
  /** From the last ResultScored's append to RunCompleted: the completion (report, verdict, comparison) on the run's critical path. */
  completionMs: number;
  /** From startRun's request to the first ResultScored's append: the run's start on its critical path. */
  firstScoredMs: number;
  seenCompletedMs: number;
  progressMessages: number;
  progressLatestP95: number;
  progressOldestP95: number;
  /** The target's figure: each of 20 clients' requests, sent to its answer's last byte (every answer checked byte for byte against one decoded and checked). */
  runQueryP50: number;
  runQueryP95: number;
  /** The same 20 clients also decoding every answer (inflate + JSON.parse) on this one thread. */
  runQueryDecodedP50: number;
  runQueryDecodedP95: number;
  runQuery1ClientP95: number;
  /** Where the 20-client run query's time goes, per answer: CPU of the API's process and of this one (the clients), JSON.parse alone. */
  runQueryApiCpuMs: number;
  runQueryClientCpuMs: number;
  runQueryParseMs: number;
  summaryQueryP95: number;
  rssMb: Record<string, number | null>;
}

/** NaN when there is no sample (the run ended before the subscriber saw it move). */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]);
}

let clockTicks: number | undefined;

/** The fields of /proc/<pid>/stat after the command's name: index 0 is field 3 (state). */
async function statOf(pid: number): Promise<string[]> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** CPU a process has used so far in ms (utime + stime of /proc/<pid>/stat, every thread; 10 ms ticks). */
async function cpuMsOf(pid: number): Promise<number> {
  clockTicks ??= Number(execSync("getconf CLK_TCK").toString());
  const fields = await statOf(pid);
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

/**
 * Minor page faults of a process so far (minflt): each is a first touch of fresh memory, which
 * on this kind of VM costs about 10 µs (a 5 MB allocation written once: ~14 ms).
 */
async function minorFaultsOf(pid: number): Promise<number> {
  return Number((await statOf(pid))[7]);
}

interface QueryTimes {
  /** Each request as its client saw it: sent to parsed. */
  times: number[];
  /** CPU per request of this process (every client: HTTP, inflate, JSON.parse) and of the API's process. */
  clientCpuMs: number;
  apiCpuMs: number;
}

/** `clients` concurrent clients, each sending a request REQUESTS_PER_CLIENT times, one after the other. */
async function timeQuery<A>(send: () => Promise<A>, check: (answer: A) => boolean, apiPid: number, clients = CLIENTS): Promise<QueryTimes> {
  await send(); // a finished run is read once, then its answer is kept
  const times: number[] = [];
  const clientCpu = process.cpuUsage();
  const apiCpu = await cpuMsOf(apiPid);
  await Promise.all(Array.from({ length: clients }, async () => {
    for (let i = 0; i < REQUESTS_PER_CLIENT; i++) {
      const start = performance.now();
      const answer = await send();
      times.push(performance.now() - start);
      if (!check(answer)) throw new Error(`unexpected answer: ${JSON.stringify(answer).slice(0, 300)}`);
    }
  }));
  const used = process.cpuUsage(clientCpu);
  return { times, clientCpuMs: (used.user + used.system) / 1000 / times.length, apiCpuMs: ((await cpuMsOf(apiPid)) - apiCpu) / times.length };
}

/** Median time of JSON.parse on an answer's text: the part of a client's cost no server change can remove. */
function parseMs(text: string): number {
  const times = Array.from({ length: 21 }, () => {
    const start = performance.now();
    JSON.parse(text);
    return performance.now() - start;
  });
  return times.sort((a, b) => a - b)[10];
}

const round2 = (ms: number) => Math.round(ms * 100) / 100;

/** The run through the API: create, start, follow, then the queries; the servers' pids for RSS. */
async function measure(mode: string, graphqlUrl: string, key: string, processes: () => AppProcess[]): Promise<Figures> {
  const client = apiClient(graphqlUrl);
  try {
    const scenarios = Array.from({ length: SCENARIOS }, (_, i) => ({ key: `s${i}`, prompt: `Where is order ${i}?` }));
    // One name per measured run: an agent's evaluation names are unique, and the embedded runs share one home.
    const created = await client.ok(key, `mutation ($n: String!, $s: JSON!, $c: JSON!, $m: [String!]) { createEvaluation(input: { agent: "BenchAgent", name: $n, scenarios: $s, criteria: $c, compareModels: $m, judgeKind: RULES }) { evaluationId } }`, { n: `bench (${mode})`, s: scenarios, c: CRITERIA, m: MODELS });
    const evaluationId = created.createEvaluation.evaluationId;
    const platformCpu = async () => (await Promise.all(processes().map((app) => cpuMsOf(app.pid)))).reduce((a, b) => a + b, 0);
    const platformFaults = async () => (await Promise.all(processes().map((app) => minorFaultsOf(app.pid)))).reduce((a, b) => a + b, 0);
    const cpuBefore = await platformCpu();
    const faultsBefore = await platformFaults();
    const t0 = Date.now();
    const started = await client.ok(key, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id: evaluationId });
    const runId: string = started.startRun.runId;
    const startRunMs = Date.now() - t0;
    const received: Array<{ at: number; completed: number; latest: string | null }> = [];
    await client.subscribe<any>(key, PROGRESS_SUBSCRIPTION, { runId }, (m) => {
      const p = m.runProgress;
      received.push({ at: Date.now(), completed: p.completed, latest: p.latestResult ? `${p.latestResult.scenarioKey}|${p.latestResult.modelLabel}` : null });
    });
    const seenCompletedMs = received.at(-1)!.at - t0;
    const runCpuMs = Math.round((await platformCpu()) - cpuBefore);
    const runMinorFaults = (await platformFaults()) - faultsBefore;
    const audit = await client.ok(key, `query ($id: ID!) { runAudit(id: $id) { status events { type recordedAt data } } }`, { id: runId });
    if (audit.runAudit.status !== "COMPLETED") throw new Error(`run ended ${audit.runAudit.status}`);
    const events: Array<{ type: string; recordedAt: string; data: any }> = audit.runAudit.events;
    const scored = events.filter((e) => e.type === "ResultScored");
    if (scored.length !== PAIRS) throw new Error(`${scored.length} ResultScored events, expected ${PAIRS}`);
    const completedAt = Date.parse(events.find((e) => e.type === "RunCompleted")!.recordedAt);
    const runStartedAtMs = Date.parse(events.find((e) => e.type === "RunStarted")!.recordedAt) - t0;
    const appendedAt = new Map(scored.map((e) => [`${e.data.scenario_key}|${e.data.model_label}`, Date.parse(e.recordedAt)]));
    const scoredTimes = scored.map((e) => Date.parse(e.recordedAt)).sort((a, b) => a - b);
    const latest: number[] = [];
    const oldest: number[] = [];
    let before = received[0]?.completed ?? 0;
    for (const message of received.slice(1)) {
      if (message.latest && appendedAt.has(message.latest)) latest.push(message.at - appendedAt.get(message.latest)!);
      if (message.completed > before) oldest.push(message.at - scoredTimes[before]);
      before = message.completed;
    }
    const apiPid = processes().find((app) => app.name === "api" || app.name === "embedded")!.pid;
    const ask = (query: string) => () => client.ok(key, query, { id: runId });
    const allResults = (d: any) => d.run.results.edges.length === PAIRS;
    const results = await timeQuery(ask(RESULTS_QUERY), allResults, apiPid);
    // One client alone: the request's own cost, without queueing behind 19 others on one event loop.
    const alone = await timeQuery(ask(RESULTS_QUERY), allResults, apiPid, 1);
    const summary = await timeQuery(ask(SUMMARY_QUERY), (d) => d.run.progress.completed === PAIRS, apiPid);
    // The target's measure: time to the answer's last byte, as HTTP load tools measure a request.
    // Decoding is each client's own work, and 20 clients decoding on this one thread would queue
    // behind each other (at least 20 x client CPU, shown beside it). One answer is decoded and
    // checked; every timed answer must be the same bytes.
    const reference = await client.gqlWire(key, RESULTS_QUERY, { id: runId });
    const referenceText = wireText(reference);
    if (reference.status !== 200 || !allResults(JSON.parse(referenceText).data)) throw new Error("the run query did not answer every result");
    const parse = parseMs(referenceText);
    const wire = await timeQuery(() => client.gqlWire(key, RESULTS_QUERY, { id: runId }), (a) => a.status === 200 && a.bytes.equals(reference.bytes), apiPid);
    const rssMb: Record<string, number | null> = {};
    for (const app of processes()) rssMb[app.name] = await peakRssMbOf(app.pid);
    const wallMs = completedAt - t0;
    return {
      mode, wallMs, startRunMs, runStartedAtMs, resultsPerSecond: Math.round((PAIRS * 1000) / wallMs), runCpuMs, runMinorFaults, completionMs: completedAt - scoredTimes[scoredTimes.length - 1], firstScoredMs: scoredTimes[0] - t0, seenCompletedMs, progressMessages: received.length,
      progressLatestP95: percentile(latest, 95), progressOldestP95: percentile(oldest, 95),
      runQueryP50: percentile(wire.times, 50), runQueryP95: percentile(wire.times, 95),
      runQueryDecodedP50: percentile(results.times, 50), runQueryDecodedP95: percentile(results.times, 95), runQuery1ClientP95: percentile(alone.times, 95),
      runQueryApiCpuMs: round2(wire.apiCpuMs), runQueryClientCpuMs: round2(results.clientCpuMs), runQueryParseMs: round2(parse),
      summaryQueryP95: percentile(summary.times, 95), rssMb,
    };
  } finally {
    await client.close();
  }
}

/**
 * The embedded process on `home` until READY; its URL, key and peak RSS so far. It runs as
 * `npm start` runs the platform: this file bundled by scripts/bundle.mjs, on plain node with the
 * same node flags.
 */
async function startEmbedded(home: string, launch: string[]): Promise<{ child: AppProcess; url: string; key: string; readyRssMb: number | null }> {
  const env = { VERDICT_HOME: home, DATABASE_URL: undefined, KAFKA_BROKERS: undefined, VERDICT_READ_DATABASE_URL: undefined };
  const child = spawnApp("embedded", [...nodeArgs, ...launch, "--embedded-child"], env, { tsx: false });
  try {
    const [, url, key] = await child.waitForOutput(/READY (\S+) (\S+)/, 120_000);
    return { child, url, key, readyRssMb: await peakRssMbOf(child.pid) };
  } catch (error) {
    await stopApp(child);
    throw error;
  }
}

/**
 * Started twice on one home: the first start creates the PGlite cluster (initdb alone peaks near
 * 850 MB), the second opens it as every later `verdict start` does, and is measured.
 */
async function embedded(): Promise<Figures[]> {
  const home = await mkdtemp(join(tmpdir(), "verdict-bench-home-"));
  try {
    // Imported by a computed path: the bundle of this file must not carry esbuild with it.
    const { bundle, EMBEDDED_NODE_FLAGS } = (await import(pathToFileURL(join(ROOT, "scripts", "bundle.mjs")).href)) as typeof import("../scripts/bundle.mjs");
    const bundled = await bundle(relative(ROOT, fileURLToPath(import.meta.url)), ".build/bench/platform-embedded.mjs");
    const launch = [...EMBEDDED_NODE_FLAGS, bundled];
    const first = await startEmbedded(home, launch);
    await stopApp(first.child, 15_000);
    const second = await startEmbedded(home, launch);
    try {
      const figures = await measure("embedded", second.url, second.key, () => [second.child]);
      figures.rssMb["embedded at ready"] = second.readyRssMb;
      figures.rssMb["first start (initdb) at ready"] = first.readyRssMb;
      // The same run again in the same process: what the first run paid for compiling (V8's
      // optimizing compiler for the JavaScript and for PGlite's WebAssembly works through the
      // first run) shows as the difference. Each later row's peak RSS is the process's so far.
      const later: Figures[] = [];
      for (let n = 2; n <= RUNS_PER_PROCESS; n++) later.push(await measure(`embedded, run ${n}`, second.url, second.key, () => [second.child]));
      return [figures, ...later];
    } finally {
      await stopApp(second.child, 15_000);
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** This file as the embedded platform's one process (what `verdict start` wires, with the bench agent). */
async function embeddedChild(): Promise<void> {
  const { randomUUID } = await import("node:crypto");
  const { createApiServer } = await import("@verdict/api");
  const { ScriptedAgent } = await import("@verdict/infra/agents");
  const { createProjector } = await import("@verdict/projector");
  const { startWorker, silentLog } = await import("@verdict/worker");
  const { claimHome, openEventStore, openJobBus, platformMode, Resources } = await import("../apps/cli/platform.js");
  const { openApiKeys, openCheckpoints, openReadSide } = await import("../apps/cli/services.js");
  const { EMBEDDED_JOBS_PER_REPLAY_SLOT, EMBEDDED_PROJECTOR_GATHER_MS, paceByProjection } = await import("../apps/cli/projectionPacing.js");
  const mode = platformMode(process.env);
  const resources = new Resources();
  await claimHome(mode, resources);
  const store = await openEventStore(mode, resources);
  const { read, progress } = await openReadSide(mode, resources);
  const projector = createProjector({ store, orm: read.orm, database: read.sql, bus: progress, gatherMs: EMBEDDED_PROJECTOR_GATHER_MS });
  projector.start();
  resources.add(projector, (p) => p.stop());
  const bus = openJobBus(mode, resources);
  const checkpoints = await openCheckpoints(mode, resources);
  const pacing = paceByProjection(store, projector);
  const worker = await startWorker({ store: pacing.store, pace: pacing.pace, bus, checkpoints, runtime: ScriptedAgent.fromYaml(AGENT_YAML), judge: null, log: silentLog, concurrency: Number(workerConcurrency), jobsPerReplaySlot: EMBEDDED_JOBS_PER_REPLAY_SLOT });
  resources.add(worker, (w) => w.stop());
  const apiKeys = await openApiKeys(mode, resources);
  const { key } = await apiKeys.create({ tenant: "bench", role: "write", name: "bench" });
  const api = await createApiServer({
    store, readModels: read.readModels, progress, apiKeys, clock: { now: () => new Date() }, ids: { next: () => randomUUID() },
    port: 0, waitForProjection: (position) => projector.waitFor(position, 30_000), log: () => undefined,
  });
  resources.add(api, (a) => a.close());
  console.log(`READY ${api.graphqlUrl} ${key}`);
  const stop = () => void resources.close().then(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

async function distributed(): Promise<Figures> {
  const { createTestDatabase } = await import("../infra/services/testDatabase.js");
  const { createApiKey, distributedEnv, startApi, startProjector, startWorkerProcess } = await import("../test/e2e/support/platformProcesses.js");
  const db = await createTestDatabase("verdict_bench");
  const dir = await mkdtemp(join(tmpdir(), "verdict-bench-agent-"));
  const agentPath = join(dir, "agent.yaml");
  await writeFile(agentPath, AGENT_YAML);
  const env = distributedEnv(db.url, agentPath);
  const apps: AppProcess[] = [];
  try {
    const api = await startApi(env, nodeArgs);
    apps.push(api.app);
    const key = await createApiKey(env, "bench", "write");
    apps.push(await startProjector(env, "projector", nodeArgs));
    const workerEnv = { VERDICT_JUDGE: "none", VERDICT_WORKER_CONCURRENCY: workerConcurrency, VERDICT_KAFKA_PARTITIONS: partitions };
    // One after the other: started at once on a fresh database they race on the checkpoint table's DDL.
    apps.push(await startWorkerProcess(env, "worker-1", workerEnv, nodeArgs));
    apps.push(await startWorkerProcess(env, "worker-2", workerEnv, nodeArgs));
    return await measure("distributed", api.graphqlUrl, key, () => apps);
  } finally {
    await Promise.allSettled(apps.map((app) => stopApp(app, 15_000)));
    await db.drop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The distributed mode's services, started (or found running) by the same idempotent scripts
 * `npm test` uses, so a first `npm run bench` does not end in a wall of connection errors.
 * Before the baseline: a broker's start-up must not overlap anything timed.
 */
function ensureServices(): void {
  for (const script of ["postgres.sh", "kafka.sh start"]) {
    execSync(`bash ${join(ROOT, "infra", "services", script)}`, { stdio: ["ignore", "inherit", "inherit"] });
  }
}

/**
 * promptfoo on the same shape, first, as the run's baseline (issue #6 sets the embedded target
 * at 10x its throughput); skipped, with the reason, when it is not installed or
 * VERDICT_BENCH_BASELINE=0.
 */
async function baselineRun(): Promise<PromptfooBaseline | null> {
  if (process.env.VERDICT_BENCH_BASELINE === "0") return null;
  if (!promptfooInstalled(ROOT)) {
    console.log("baseline: promptfoo is not installed, so no baseline in this run (bash bench/promptfoo/install.sh installs it, ~3 min)");
    return null;
  }
  const shape = { scenarios: SCENARIOS, models: MODELS, answer: ANSWER, concurrency: Number(workerConcurrency) };
  let figures: PromptfooBaseline;
  try {
    figures = await promptfooBaseline(ROOT, shape);
  } catch (error) {
    // Its failure is promptfoo's, not ours: say so and still measure Verdict.
    console.log(`baseline: promptfoo failed, so no baseline in this run: ${(error as Error).message}`);
    return null;
  }
  console.log(`baseline: promptfoo ${figures.version}, ${figures.results} results (${figures.passed} passed) at concurrency ${shape.concurrency}: ` +
    `${figures.evalMs} ms evaluating, ${figures.resultsPerSecond} results/s (${figures.processMs} ms for the whole process), peak RSS ${figures.peakRssMb} MB`);
  console.log(`after the baseline: ${load()}`);
  return figures;
}

function load(): string {
  const [one, five, fifteen] = loadavg().map((l) => l.toFixed(2));
  return `load average ${one}, ${five}, ${fifteen} (${execSync("nproc").toString().trim()} cores)`;
}

function verdictOf(value: number, target: number, atLeast: boolean): string {
  return `${(atLeast ? value >= target : value < target) ? "meets" : "MISSES"} ${atLeast ? ">=" : "<"} ${target}`;
}

async function main(): Promise<void> {
  const only = process.env.VERDICT_BENCH_ONLY;
  console.log(`platform bench: ${SCENARIOS} scenarios x ${MODELS.length} models = ${PAIRS} results, scripted agent at zero latency, 3 rule checks, judge none`);
  console.log(`worker concurrency ${workerConcurrency}, Kafka partitions ${partitions}, servers' NODE_ENV ${process.env.VERDICT_CHILD_NODE_ENV ?? "unset"}`);
  if (only !== "embedded") ensureServices();
  console.log(`before: ${load()}`);
  const baseline = await baselineRun();
  const figures: Figures[] = [];
  if (only !== "distributed") {
    const runs: Figures[][] = [];
    for (let i = 0; i < EMBEDDED_RUNS; i++) runs.push(await embedded());
    // The run with the median throughput stands for the mode; every run is in the table.
    const byThroughput = [...runs].sort((a, b) => a[0].resultsPerSecond - b[0].resultsPerSecond);
    const median = byThroughput[(byThroughput.length - 1) >> 1];
    figures.push(median[0], ...runs.filter((run) => run !== median).map((run) => ({ ...run[0], mode: "embedded (another process)" })));
    figures.push(...runs.flatMap((run) => run.slice(1)));
    const list = (at: number) => runs.map((run) => run[at]?.resultsPerSecond).filter((n) => n !== undefined).join(", ");
    console.log(`embedded: ${EMBEDDED_RUNS} fresh processes, first run ${list(0)} results/s (median ${median[0].resultsPerSecond})${RUNS_PER_PROCESS > 1 ? `; a second run in the same process ${list(1)}` : ""}`);
  }
  console.log(`after embedded: ${load()}`);
  if (only !== "embedded") figures.push(await distributed());
  console.log(`after distributed: ${load()}`);
  console.table(figures.map(({ rssMb, ...f }) => ({ ...f, rssMb: Object.entries(rssMb).map(([n, mb]) => `${n} ${mb}`).join(", ") })));
  // The targets are judged on the median first run (the first row of each mode).
  for (const f of figures.filter((row) => row.mode === "embedded" || row.mode === "distributed")) {
    const throughputTarget = f.mode === "embedded" ? 1500 : 500;
    const versus = baseline ? `, ${(f.resultsPerSecond / baseline.resultsPerSecond).toFixed(1)}x promptfoo's ${baseline.resultsPerSecond} in this run` : "";
    console.log(`${f.mode}: ${f.resultsPerSecond} results/s (${verdictOf(f.resultsPerSecond, throughputTarget, true)}${versus}; ${f.runCpuMs} ms of CPU for the run), ` +
      `progress p95 ${f.progressLatestP95} ms latest / ${f.progressOldestP95} ms oldest (${verdictOf(f.progressOldestP95, 150, false)}), ` +
      `run query p95 ${f.runQueryP95} ms to the last byte (${verdictOf(f.runQueryP95, 30, false)}; API CPU ${f.runQueryApiCpuMs} ms an answer; ` +
      `decoded too, on this one thread: p95 ${f.runQueryDecodedP95} ms, client CPU ${f.runQueryClientCpuMs} ms an answer of which JSON.parse ${f.runQueryParseMs} ms, ` +
      `so ${CLIENTS} clients here make the mean at least ${Math.round(CLIENTS * f.runQueryClientCpuMs)} ms)` +
      (f.mode === "embedded" ? `, RSS ${f.rssMb.embedded} MB (${verdictOf(f.rssMb.embedded ?? Infinity, 300, false)})` : ""));
  }
  if (profileDir) console.log(`CPU profiles in ${profileDir}`);
}

if (process.argv[2] === "--embedded-child") {
  embeddedChild().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().then(() => process.exit(0), (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
