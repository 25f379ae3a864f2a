import { describe, expect, it, vi } from "vitest";
import { Judge } from "../judge/index.js";
import { Correlation, type EvaluationContext } from "./correlation.js";
import type { TraceOptions } from "./tracer.js";

/** A fake tracer: records each trace and reports ids t1, t2, ... unless told to drop one. */
function fakeTracer(drop: (name: string) => boolean = () => false) {
  const traces: { name: string; action: string; attributes: TraceOptions["attributes"] }[] = [];
  const tracer = async <T>(name: string, options: TraceOptions, fn: () => Promise<T>): Promise<T> => {
    traces.push({ name, action: options.action, attributes: options.attributes });
    const id = `t${traces.length}`;
    const value = await fn();
    if (!drop(name)) options.onTrace({ traceId: id });
    return value;
  };
  return { tracer, traces };
}

function counter(prefix = "id") {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

const context = (key: string, label = "gpt-5-mini"): EvaluationContext => ({
  scenario: { key },
  spec: { label, model: label, provider: "openai" },
});

const aResult = () => ({ replay: { metadata: { chat_id: 7 } as Record<string, unknown> } });

describe("Correlation.withRun", () => {
  it("mints a run_id on the caller's own metadata and hands that object to the block", async () => {
    const correlation = new Correlation({ agentName: "SupportAgent", ids: counter("run") });
    const metadata: Record<string, unknown> = { suite: "support" };
    const seen = await correlation.withRun(metadata, (given) => {
      expect(given).toBe(metadata);
      return correlation.current();
    });
    expect(metadata).toEqual({ suite: "support", run_id: "run-1" });
    expect(seen).toEqual({ suite: "support", run_id: "run-1" });
    expect(correlation.current()).toBeNull();
  });

  it("keeps a run_id the caller already set", async () => {
    const correlation = new Correlation({ agentName: "A", ids: counter() });
    const metadata = { run_id: "mine" };
    await correlation.withRun(metadata, () => undefined);
    expect(metadata.run_id).toBe("mine");
  });

  it("nests, and restores the outer context afterwards, also when the block throws", async () => {
    const correlation = new Correlation({ agentName: "A", ids: counter() });
    await correlation.withRun({ run_id: "outer" }, async () => {
      await expect(
        correlation.withRun({ run_id: "inner" }, () => {
          expect(correlation.current()?.run_id).toBe("inner");
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(correlation.current()?.run_id).toBe("outer");
    });
    expect(correlation.current()).toBeNull();
  });
});

describe("Correlation as aroundEvaluation", () => {
  it("mints a result_id per evaluation and merges the ids into the result's replay metadata", async () => {
    const correlation = new Correlation({ agentName: "A", ids: counter() });
    const around = correlation.aroundEvaluation;
    const result = await correlation.withRun({}, () => around(context("orders_1"), async () => aResult()));
    expect(result.replay.metadata).toEqual({
      chat_id: 7,
      run_id: "id-1",
      result_id: "id-2",
      scenario_key: "orders_1",
      model_label: "gpt-5-mini",
      model: "gpt-5-mini",
      provider: "openai",
    });
  });

  it("returns the very result the evaluation produced", async () => {
    const correlation = new Correlation({ agentName: "A" });
    const produced = aResult();
    expect(await correlation.aroundEvaluation(context("s"), async () => produced)).toBe(produced);
    expect(produced.replay.metadata.result_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("records the replay's trace id on the result and the judge's on judge_trace_ids", async () => {
    const { tracer, traces } = fakeTracer();
    const correlation = new Correlation({ agentName: "SupportAgent", tracer, ids: counter() });
    const result = await correlation.withRun({ suite: "support", secret_scope: "x" }, () =>
      correlation.aroundEvaluation(context("orders_1"), async () => {
        await correlation.replay(async () => "answer");
        await correlation.judge("score", async () => '{"score": 1}');
        await correlation.judge("recommend", async () => "{}");
        return aResult();
      }),
    );
    expect(result.replay.metadata.trace_id).toBe("t1");
    expect(result.replay.metadata.judge_trace_ids).toEqual(["t2", "t3"]);
    expect(traces.map(({ name, action }) => `${name}/${action}`)).toEqual(["SupportAgent/eval", "SupportAgentJudge/score", "SupportAgentJudge/recommend"]);
    expect(traces[0].attributes).toEqual({
      "eval.run_id": "id-1",
      "eval.result_id": "id-2",
      "eval.suite": "support",
      "eval.scenario_key": "orders_1",
      "eval.model_label": "gpt-5-mini",
      "eval.model": "gpt-5-mini",
      "eval.provider": "openai",
    });
  });

  it("records a judge call outside any evaluation (the verdict) on the run metadata", async () => {
    const { tracer, traces } = fakeTracer();
    const correlation = new Correlation({ agentName: "A", judgeName: "Referee", tracer, ids: counter() });
    const metadata: Record<string, unknown> = {};
    await correlation.withRun(metadata, async () => {
      await correlation.aroundEvaluation(context("s1"), async () => aResult());
      await correlation.judge("verdict", async () => "{}");
    });
    expect(metadata.judge_trace_ids).toEqual(["t1"]);
    expect(metadata.trace_id).toBeUndefined();
    expect(traces[0]).toEqual({ name: "Referee", action: "verdict", attributes: { "eval.run_id": "id-1" } });
  });

  it("keeps concurrent evaluations' ids and traces apart", async () => {
    const { tracer } = fakeTracer();
    const correlation = new Correlation({ agentName: "A", tracer, ids: counter() });
    const evaluate = (key: string, delay: number) =>
      correlation.aroundEvaluation(context(key), async () => {
        await new Promise((resolve) => setTimeout(resolve, delay));
        await correlation.replay(async () => key);
        return aResult();
      });
    const [slow, fast] = await correlation.withRun({}, () => Promise.all([evaluate("slow", 20), evaluate("fast", 1)]));
    expect(slow.replay.metadata).toMatchObject({ scenario_key: "slow", result_id: "id-2", trace_id: "t2" });
    expect(fast.replay.metadata).toMatchObject({ scenario_key: "fast", result_id: "id-3", trace_id: "t1" });
  });

  it("writes no trace id for a trace the tracer dropped", async () => {
    const { tracer } = fakeTracer((name) => name === "A");
    const correlation = new Correlation({ agentName: "A", tracer });
    const result = await correlation.aroundEvaluation(context("s"), async () => {
      await correlation.replay(async () => "x");
      return aResult();
    });
    expect(result.replay.metadata.trace_id).toBeUndefined();
  });

  it("records no trace id the tracer gives after the evaluation ended, so a returned result never changes", async () => {
    const late: (() => void)[] = [];
    // A tracer that reports each id only later (a replay past its budget settles after its result).
    const tracer = async <T>(name: string, options: TraceOptions, fn: () => Promise<T>): Promise<T> => {
      const value = await fn();
      late.push(() => options.onTrace(`late-${name}`));
      return value;
    };
    const correlation = new Correlation({ agentName: "A", tracer });
    const run: Record<string, unknown> = {};
    const result = await correlation.withRun(run, async () => {
      const evaluated = await correlation.aroundEvaluation(context("s"), async () => {
        await correlation.judge("score", async () => "graded");
        late.shift()?.(); // this one arrives while the evaluation is open
        await correlation.judge("recommend", async () => "refined");
        await correlation.replay(async () => "answer");
        return aResult();
      });
      await correlation.judge("verdict", async () => "picked");
      return evaluated;
    });
    const before = structuredClone(result.replay.metadata);
    expect(before.judge_trace_ids).toEqual(["late-AJudge"]);
    expect(late).toHaveLength(3);
    for (const deliver of late) deliver();
    expect(result.replay.metadata).toEqual(before);
    expect(run.judge_trace_ids).toBeUndefined();
  });

  it("records no trace id of zeros (OpenTelemetry's API with no SDK registered)", async () => {
    const tracer = async <T>(_name: string, options: TraceOptions, fn: () => Promise<T>): Promise<T> => {
      options.onTrace({ traceId: "00000000000000000000000000000000" });
      return fn();
    };
    const correlation = new Correlation({ agentName: "A", tracer });
    const result = await correlation.aroundEvaluation(context("s"), async () => {
      await correlation.replay(async () => "x");
      return aResult();
    });
    expect(result.replay.metadata.trace_id).toBeUndefined();
  });

  it("runs the block untraced when the tracer fails before it, and keeps its outcome when the tracer fails after", async () => {
    // Each failing Correlation warns once (below); kept off the test's output here.
    const warnings = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    const calls: string[] = [];
    const failing = (when: "before" | "after" | "twice") => async <T>(_name: string, _options: TraceOptions, fn: () => Promise<T>): Promise<T> => {
      if (when === "before") throw new Error("span processor failed");
      const value = await fn();
      if (when === "twice") await fn();
      if (when === "after") throw new Error("exporter failed");
      return value;
    };
    for (const when of ["before", "after", "twice"] as const) {
      const correlation = new Correlation({ agentName: "A", tracer: failing(when) });
      await expect(correlation.replay(async () => { calls.push(when); return `answer ${when}`; })).resolves.toBe(`answer ${when}`);
      await expect(correlation.judge("score", async () => { throw new Error(`judge down ${when}`); })).rejects.toThrow(`judge down ${when}`);
    }
    // Each block ran exactly once, whatever the tracer did.
    expect(calls).toEqual(["before", "after", "twice"]);
    // A tracer that schedules the block and then throws: the block still runs once.
    let runs = 0;
    const scheduling = new Correlation({
      agentName: "A",
      tracer: async <T>(_name: string, _options: TraceOptions, fn: () => Promise<T>): Promise<T> => {
        setTimeout(() => void fn(), 5);
        throw new Error("span processor failed");
      },
    });
    await expect(scheduling.replay(async () => { runs += 1; return "once"; })).resolves.toBe("once");
    await new Promise((r) => setTimeout(r, 20));
    expect(runs).toBe(1);
    expect(warnings).toHaveBeenCalledTimes(3);
    warnings.mockRestore();
  });

  it("warns once per Correlation of its tracer failing, naming the failure, and not of a block's own error passed on", async () => {
    const warnings = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const before = async <T>(): Promise<T> => { throw new Error("span processor failed"); };
      const correlation = new Correlation({ agentName: "SupportAgent", tracer: before });
      await expect(correlation.replay(async () => "answer")).resolves.toBe("answer");
      await expect(correlation.judge("score", async () => "grade")).resolves.toBe("grade");
      expect(warnings).toHaveBeenCalledTimes(1);
      const [message, options] = warnings.mock.calls[0] as [string, { type: string; code: string }];
      expect(message).toMatch(/^Correlation: the tracer failed on SupportAgent eval \(Error: span processor failed\); the traced block's outcome stands/);
      expect(message).toContain("pass onTracerError");
      expect(options).toEqual({ type: "CorrelationWarning", code: "VERDICT_TRACER_FAILED" });
      // Another Correlation warns of its own first failure.
      await new Correlation({ agentName: "B", tracer: before }).judge("verdict", async () => "{}");
      expect(warnings).toHaveBeenCalledTimes(2);
      expect(warnings.mock.calls[1][0]).toMatch(/^Correlation: the tracer failed on BJudge verdict /);
      // A tracer that marks its span failed and rethrows the block's own error did not fail.
      const failedSpans: unknown[] = [];
      const rethrowing = new Correlation({
        agentName: "C",
        tracer: async <T>(_name: string, _options: TraceOptions, fn: () => Promise<T>): Promise<T> => {
          try { return await fn(); } catch (error) { failedSpans.push(error); throw error; }
        },
      });
      await expect(rethrowing.replay(async () => { throw new Error("agent down"); })).rejects.toThrow("agent down");
      expect(failedSpans).toHaveLength(1);
      expect(warnings).toHaveBeenCalledTimes(2);
      // One that throws something else after the block did: the block's outcome stands, told once.
      const after = new Correlation({
        agentName: "D",
        tracer: async <T>(_name: string, _options: TraceOptions, fn: () => Promise<T>): Promise<T> => {
          await fn().catch(() => undefined);
          throw new Error("exporter failed");
        },
      });
      await expect(after.replay(async () => { throw new Error("agent down"); })).rejects.toThrow("agent down");
      expect(warnings).toHaveBeenCalledTimes(3);
      expect(warnings.mock.calls[2][0]).toContain("(Error: exporter failed)");
    } finally {
      warnings.mockRestore();
    }
  });

  it("tells onTracerError of each tracer failure instead of warning, and a failing onTracerError fails no block", async () => {
    const warnings = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const failure = new Error("exporter failed");
      const tracer = async <T>(_name: string, _options: TraceOptions, fn: () => Promise<T>): Promise<T> => { await fn(); throw failure; };
      const told: [unknown, unknown][] = [];
      let runs = 0;
      const correlation = new Correlation({ agentName: "A", tracer, onTracerError: (error, context) => { told.push([error, context]); } });
      await expect(correlation.replay(async () => { runs += 1; return "answer"; })).resolves.toBe("answer");
      await expect(correlation.judge("recommend", async () => { runs += 1; return "fix"; })).resolves.toBe("fix");
      expect(runs).toBe(2);
      expect(told).toEqual([[failure, { kind: "replay", name: "A", action: "eval" }], [failure, { kind: "judge", name: "AJudge", action: "recommend" }]]);
      expect(warnings).not.toHaveBeenCalled();
      // An onTracerError that throws (or rejects) changes no outcome; it is warned of once.
      for (const onTracerError of [() => { throw new Error("log sink down"); }, () => Promise.reject(new Error("log sink down"))]) {
        const failing = new Correlation({ agentName: "E", tracer, onTracerError });
        await expect(failing.replay(async () => "still")).resolves.toBe("still");
        await expect(failing.replay(async () => "again")).resolves.toBe("again");
      }
      await new Promise((r) => setTimeout(r, 0));
      expect(warnings).toHaveBeenCalledTimes(2);
      expect(warnings.mock.calls[0][0]).toMatch(/^Correlation: onTracerError failed \(Error: log sink down\) while told of the tracer failing on E eval \(Error: exporter failed\)/);
    } finally {
      warnings.mockRestore();
    }
  });

  it("uses the Runner's metadata as the run when no withRun is open", async () => {
    const correlation = new Correlation({ agentName: "A", ids: counter() });
    const runMetadata: Record<string, unknown> = { suite: "s" };
    const first = await correlation.aroundEvaluation({ ...context("a"), runMetadata }, async () => aResult());
    const second = await correlation.aroundEvaluation({ ...context("b"), runMetadata }, async () => aResult());
    expect(runMetadata.run_id).toBe("id-1");
    expect(first.replay.metadata.run_id).toBe("id-1");
    expect(second.replay.metadata.run_id).toBe("id-1");
    expect(second.replay.metadata.result_id).toBe("id-3");
  });

  it("lets the evaluation's errors propagate", async () => {
    const correlation = new Correlation({ agentName: "A" });
    await expect(correlation.aroundEvaluation(context("s"), async () => Promise.reject(new Error("scoring broke")))).rejects.toThrow("scoring broke");
  });

  it("refuses a result whose replay metadata cannot take the ids", async () => {
    const correlation = new Correlation({ agentName: "A" });
    const frozen = { replay: { metadata: Object.freeze({}) as Record<string, unknown> } };
    await expect(correlation.aroundEvaluation(context("s"), async () => frozen)).rejects.toThrow(/replay\.metadata must be a mutable object/);
  });
});

describe("Correlation without a tracer", () => {
  it("still mints ids and merges them, runs blocks untraced and writes no trace ids", async () => {
    const correlation = new Correlation({ agentName: "A", ids: { next: counter("uuid") } });
    const result = await correlation.withRun({}, () =>
      correlation.aroundEvaluation(context("s"), async () => {
        expect(await correlation.replay(() => 42)).toBe(42);
        expect(await correlation.judge("score", () => "ok")).toBe("ok");
        return aResult();
      }),
    );
    expect(result.replay.metadata).toMatchObject({ run_id: "uuid-1", result_id: "uuid-2" });
    expect(result.replay.metadata.trace_id).toBeUndefined();
    expect(result.replay.metadata.judge_trace_ids).toBeUndefined();
  });
});

describe("Correlation.traceJudge", () => {
  it("traces each completion under the kind it serves", async () => {
    const { tracer, traces } = fakeTracer();
    const correlation = new Correlation({ agentName: "A", tracer });
    const complete = correlation.traceJudge(async (request: { kind: string; prompt: string }) => `answer to ${request.prompt}`);
    expect(await complete({ kind: "recommend", prompt: "p" })).toBe("answer to p");
    expect(traces[0]).toMatchObject({ name: "AJudge", action: "recommend" });
  });
});

describe("Correlation with a Judge", () => {
  it("puts each judge call's trace on the result it graded and the verdict's on the run", async () => {
    const { tracer, traces } = fakeTracer();
    const correlation = new Correlation({ agentName: "SupportAgent", tracer, ids: counter() });
    const judge = new Judge({
      label: "judge-model",
      complete: correlation.traceJudge(async ({ kind }) => (kind === "verdict" ? '{"winner": "a", "rationale": "r"}' : '{"score": 0.9}')),
    });
    const metadata: Record<string, unknown> = {};
    const result = await correlation.withRun(metadata, async () => {
      const evaluated = await correlation.aroundEvaluation(context("s1"), async () => {
        await judge.scoreTask({ scenario: { prompt: "p" }, answer: "a" });
        return aResult();
      });
      await judge.verdict({ summaries: { a: { pass_rate: 100 }, b: { pass_rate: 50 } } });
      return evaluated;
    });
    expect(result.replay.metadata.judge_trace_ids).toEqual(["t1"]);
    expect(metadata.judge_trace_ids).toEqual(["t2"]);
    expect(traces.map((trace) => trace.action)).toEqual(["score", "verdict"]);
  });
});

describe("new Correlation", () => {
  it("requires an agent name and a callable tracer", () => {
    expect(() => new Correlation({ agentName: "" })).toThrow(/agentName must be a non-blank string/);
    expect(() => new Correlation({ agentName: "A", tracer: "otel" as never })).toThrow(/tracer must be a function/);
  });

  it("refuses an onTracerError that is not a function, and points its misspellings to it", () => {
    expect(() => new Correlation({ agentName: "A", onTracerError: "log" as never })).toThrow(
      "Correlation: onTracerError must be a function (error, { kind, name, action }) => void, got a string",
    );
    expect(() => new Correlation({ agentName: "A", on_tracer_error: () => undefined } as never)).toThrow(/^Correlation: unknown option on_tracer_error \(did you mean onTracerError\?\)/);
    expect(() => new Correlation({ agentName: "A", onTracerEror: () => undefined } as never)).toThrow(/^Correlation: unknown option onTracerEror \(did you mean onTracerError\?\)/);
    expect(() => new Correlation({ agentName: "A", onTracerError: null })).not.toThrow();
  });

  it("limits attributes to the trace keys it was given", async () => {
    const { tracer, traces } = fakeTracer();
    const correlation = new Correlation({ agentName: "A", tracer, traceKeys: ["run_id", "scope"], ids: counter() });
    await correlation.withRun({ scope: "eu", suite: "x" }, () => correlation.judge("verdict", () => "{}"));
    expect(traces[0].attributes).toEqual({ "eval.run_id": "id-1", "eval.scope": "eu" });
  });
});
