// What a start stopped mid-run says of each run it waited for, from the log as the stopped worker
// left it: a finished run's reports written under reports/ (no later start would write them), an
// unfinished one left to the next start.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { ScriptedAgent } from "@verdict/infra/agents";
import { MemoryCheckpointStore, startWorker } from "@verdict/worker";
import { AGENT_SCRIPT, RecordingBus, runEnded, seedRun, testClock, testIds, waitFor } from "../worker/testing.js";
import type { GqlClient } from "./gqlClient.js";
import { bufferIo } from "./io.js";
import { RunReports } from "./runReports.js";
import { reportRunsAtStop, type RunInFlight } from "./stoppedRuns.js";

const evaluation = { id: "e1", name: "support/support/smoke" };
const runR1: RunInFlight = { evaluation, run: { id: "r1", number: 1, status: "RUNNING" } };

/** The API's report export, as saveReports asks it: the body names the path asked for. */
const reportApi = { get: async (path: string) => new Response(`report at ${path}`) } as unknown as GqlClient;

let dir = "";
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("reportRunsAtStop", () => {
  it("writes the reports of a run that finished as the worker stopped, and says where", async () => {
    dir = await mkdtemp(join(tmpdir(), "verdict-stopped-"));
    const store = createMemoryEventStore();
    const worker = await startWorker({ store, bus: new RecordingBus(), runtime: ScriptedAgent.fromYaml(AGENT_SCRIPT), judge: null, checkpoints: new MemoryCheckpointStore(), clock: testClock, ids: testIds, log: { info: () => undefined, error: () => undefined } });
    await seedRun(store);
    await waitFor(() => runEnded(store, "r1"));
    const io = bufferIo();
    let stops = 0;
    await reportRunsAtStop([runR1], { store, reports: new RunReports(reportApi, join(dir, "reports")), stopWorker: () => (stops++, worker.stop()) }, io);

    const html = join(dir, "reports", "support-support-smoke-run-1.html");
    const markdown = join(dir, "reports", "support-support-smoke-run-1.md");
    expect(stops).toBe(1);
    expect(io.stdout).toEqual([`run #1 (r1) finished as the worker stopped; report: ${html} and ${markdown}`]);
    expect(await readFile(html, "utf8")).toBe("report at /api/evaluations/e1/runs/r1/report?download=1");
    expect(await readFile(markdown, "utf8")).toBe("report at /api/evaluations/e1/runs/r1/report.md?download=1");
  });

  it("leaves a run still going to the next start, saying so, and writes nothing", async () => {
    dir = await mkdtemp(join(tmpdir(), "verdict-stopped-"));
    const store = createMemoryEventStore();
    await seedRun(store);
    const io = bufferIo();
    await reportRunsAtStop([runR1], { store, reports: new RunReports(reportApi, join(dir, "reports")), stopWorker: async () => undefined }, io);
    expect(io.stdout).toEqual([`run #1 (r1) is unfinished: the next start finishes it and writes its report under ${join(dir, "reports")}`]);
  });

  it("waits for the reports the start began writing before the stop, writes them no second time, and says the run finished", async () => {
    dir = await mkdtemp(join(tmpdir(), "verdict-stopped-"));
    const store = createMemoryEventStore();
    await seedRun(store);
    // The export answers once the stop has begun: the start was still writing when Ctrl-C came.
    const asked: string[] = [];
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const slowApi = { get: async (path: string) => (asked.push(path), await answered, new Response(`report at ${path}`)) } as unknown as GqlClient;
    const reports = new RunReports(slowApi, join(dir, "reports"));
    const begun = reports.write(evaluation, runR1.run);
    const io = bufferIo();
    const stopped = reportRunsAtStop([runR1], { store, reports, stopWorker: async () => undefined }, io);
    await new Promise((resolve) => setTimeout(resolve, 20));
    answer();
    await Promise.all([begun, stopped]);

    const html = join(dir, "reports", "support-support-smoke-run-1.html");
    const markdown = join(dir, "reports", "support-support-smoke-run-1.md");
    expect(asked).toEqual(["/api/evaluations/e1/runs/r1/report?download=1", "/api/evaluations/e1/runs/r1/report.md?download=1"]);
    expect(io.stdout).toEqual([`run #1 (r1) finished; report: ${html} and ${markdown}`]);
  });

  it("does not stop the worker early when no run was in flight (stopped before the run started)", async () => {
    let stops = 0;
    await reportRunsAtStop([], { store: createMemoryEventStore(), reports: new RunReports(reportApi, "unused"), stopWorker: async () => void stops++ }, bufferIo());
    expect(stops).toBe(0);
  });
});
