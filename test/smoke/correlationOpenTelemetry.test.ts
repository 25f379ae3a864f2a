import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The README's Correlation example, run as an embedder would: its tracer adapter over the real
// OpenTelemetry SDK (NodeTracerProvider, an in-memory exporter), inside a CI job's own span as a
// test runner opens one. What is recorded on the report must point at the exported spans: each
// result at its own replay's trace, its judge calls' traces, and the run at the verdict's.
const root = join(import.meta.dirname, "../..");
const TSX = import.meta.resolve("tsx");
const scratch = join(root, ".verdict", "test-correlation-otel");
mkdirSync(scratch, { recursive: true });
const folder = mkdtempSync(join(scratch, "run-"));

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The README's TypeScript block that builds a Correlation, its imports split from its body. */
function readmeCorrelationExample(): { imports: string[]; body: string } {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]).find((code) => code.includes("new Correlation("));
  if (block === undefined) throw new Error("README.md has no ```ts block with new Correlation(");
  const lines = block.split("\n");
  return { imports: lines.filter((line) => line.startsWith("import ")), body: lines.filter((line) => !line.startsWith("import ")).join("\n") };
}

function program(): string {
  const { imports, body } = readmeCorrelationExample();
  return `${imports.join("\n")}
import { NodeTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node";
import { Correlation, Judge, ModelSpec, Runner, ScenarioParser } from "@verdict/domain";

const exporter = new InMemorySpanExporter();
new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();
const scenarios = ScenarioParser.scenarios("# Orders\\nWhere is my order 4821? | tools: lookup_order\\nCancel my subscription | not_contains: I cannot");
const models = ModelSpec.parseAll(["gpt-5-mini", "gpt-5"]);
const callMyAgent = async (prompt: string, _provider: string, model: string) =>
  ({ answer: \`About "\${prompt}": \${model} looked it up and here are the details.\`, tool_calls: [{ name: "lookup_order" }], duration_ms: 5 });
const askMyJudgeModel = async ({ kind }: { kind: string }) =>
  kind === "verdict" ? JSON.stringify({ winner: "gpt-5", rationale: "More complete." }) : JSON.stringify({ score: 0.9, rationale: "Answers it." });

const job = trace.getTracer("ci").startSpan("ci job");
const outcome = await context.with(trace.setSpan(context.active(), job), async () => {
${body}
  return report.toJSON();
});
job.end();
const spans = exporter.getFinishedSpans().map((s) => ({ name: s.name, traceId: s.spanContext().traceId, attributes: s.attributes }));
process.stdout.write(JSON.stringify({ report: outcome, spans, job: job.spanContext().traceId }));
`.replace('import { trace, SpanStatusCode } from "@opentelemetry/api";', 'import { context, trace, SpanStatusCode } from "@opentelemetry/api";');
}

describe("the README's Correlation example on the OpenTelemetry SDK", () => {
  it("records on each result the trace ids of its own replay and judge spans, and the verdict's on the run", () => {
    const file = join(folder, "example.mts");
    writeFileSync(file, program());
    const run = spawnSync(process.execPath, ["--import", TSX, file], { cwd: root, encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const { report, spans, job } = JSON.parse(run.stdout) as {
      report: { metadata: Record<string, unknown>; results: { metadata: Record<string, unknown> }[] };
      spans: { name: string; traceId: string; attributes: Record<string, unknown> }[];
      job: string;
    };
    const spansOf = (name: string, resultId: unknown) => spans.filter((s) => s.name === name && s.attributes["eval.result_id"] === resultId);
    expect(report.results).toHaveLength(4);
    for (const result of report.results) {
      const metadata = result.metadata;
      const [replay] = spansOf("SupportAgent eval", metadata.result_id);
      expect(replay.attributes).toMatchObject({ "eval.run_id": report.metadata.run_id, "eval.suite": "support", "eval.scenario_key": metadata.scenario_key, "eval.model_label": metadata.model_label });
      expect(metadata.trace_id).toBe(replay.traceId);
      expect(metadata.judge_trace_ids).toEqual(spansOf("SupportAgentJudge score", metadata.result_id).map((s) => s.traceId));
    }
    // root: true: every replay is a trace of its own, not the CI job's.
    const traceIds = report.results.map((r) => r.metadata.trace_id);
    expect(new Set(traceIds).size).toBe(4);
    expect(traceIds).not.toContain(job);
    const verdict = spans.filter((s) => s.name === "SupportAgentJudge verdict");
    expect(verdict).toHaveLength(1);
    expect(verdict[0].attributes["eval.run_id"]).toBe(report.metadata.run_id);
    expect(report.metadata.judge_trace_ids).toEqual([verdict[0].traceId]);
  });
});
