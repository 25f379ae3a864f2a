import { describe, expect, it, vi } from "vitest";
import { Correlation } from "../correlation/index.js";
import { Judge } from "../judge/index.js";
import { ModelSpec } from "../models/index.js";
import { Replay } from "../replay/index.js";
import { Scenario } from "../scenarios/index.js";
import { Runner } from "./runner.js";
import type { Result } from "./result.js";
import { ReplayTimeoutError } from "./timeout.js";
import { RunFailedError } from "./runScope.js";

const scenarios = [
  new Scenario({ key: "orders_1", prompt: "Where is my order 4821?", expectedTools: ["lookup_order"] }),
  new Scenario({ key: "cancel", prompt: "Cancel my subscription", forbiddenPatterns: ["I cannot"] }),
];
const models = ["gpt-5-mini", "claude-sonnet-5"].map((m) => ModelSpec.parse(m, { defaultProvider: "openai" }));
const good = (scenario: Scenario) => ({
  answer: "Order 4821 shipped yesterday and arrives on Friday; here is the tracking link for it.",
  tool_calls: scenario.expectedTools.map((name) => ({ name })),
  duration_ms: 1200,
});

/** A judge whose completion function records every request and answers from a script. */
function fakeJudge(answer: (kind: string, prompt: string) => string | Promise<string>) {
  const calls: { kind: string; prompt: string; instructions: string }[] = [];
  const judge = new Judge({
    label: "judge-model",
    complete: async ({ instructions, prompt, kind }) => {
      calls.push({ kind, prompt, instructions });
      return answer(kind, prompt);
    },
  });
  return { judge, calls };
}

describe("Runner.run", () => {
  it("replays every scenario x model in order, calls onResult after each, and returns a Report", async () => {
    const seen: string[] = [];
    const report = await new Runner({
      scenarios, models, replay: good,
      onResult: (result) => { seen.push(`${result.scenario.key}/${result.label}`); },
    }).run();
    expect(seen).toEqual(["orders_1/gpt-5-mini", "orders_1/claude-sonnet-5", "cancel/gpt-5-mini", "cancel/claude-sonnet-5"]);
    expect(report.results.map((r) => r.status)).toEqual(["passed", "passed", "passed", "passed"]);
    expect(report.summaryByModel["gpt-5-mini"].pass_rate).toBe(100);
  });

  it("turns a replay that throws, returns nothing, returns junk or hangs into a run_error result", async () => {
    const replays: Record<string, () => unknown> = {
      "gpt-5-mini": () => { throw new Error("401 Unauthorized"); },
      "claude-sonnet-5": () => undefined,
    };
    const report = await new Runner({ scenarios: scenarios.slice(0, 1), models, replay: (_s, spec) => replays[spec.label]() }).run();
    expect(report.results.map((r) => [r.status, r.fault])).toEqual([["errored", "run_error"], ["errored", "run_error"]]);
    expect(report.results[0].replay.error).toContain("401 Unauthorized");
    expect(report.results[1].replay.error).toBe("replay returned nothing");

    const junk = await new Runner({ scenarios: scenarios.slice(0, 1), models: models.slice(0, 1), replay: () => ({ anser: "typo" }) }).run();
    expect(junk.results[0].status).toBe("errored");
    expect(junk.results[0].replay.error).toContain("anser");

    const hang = await new Runner({ scenarios: scenarios.slice(0, 1), models: models.slice(0, 1), replay: () => new Promise(() => {}), replayTimeoutMs: 20 }).run();
    expect(hang.results[0].status).toBe("errored");
    expect(hang.results[0].replay.error).toContain("within 20 ms");

    // A blank thrown value failed the replay too: recorded blank, it read as no error (status failed).
    for (const replay of [() => { throw ""; }, () => Promise.reject(" ")]) {
      const blank = await new Runner({ scenarios: scenarios.slice(0, 1), models: models.slice(0, 1), replay }).run();
      expect([blank.results[0].status, blank.results[0].fault]).toEqual(["errored", "run_error"]);
      expect(blank.results[0].replay.error).toMatch(/^the replay failed without a message \(it threw "\s?"\)$/);
    }

    // An object String() cannot read (no prototype) failed the whole run, as Replay.failed threw.
    const bare = Object.assign(Object.create(null) as object, { status: 503 });
    for (const replay of [() => { throw bare; }, () => Promise.reject(bare)]) {
      const odd = await new Runner({ scenarios: scenarios.slice(0, 1), models: models.slice(0, 1), replay }).run();
      expect([odd.results[0].status, odd.results[0].fault]).toEqual(["errored", "run_error"]);
      expect(odd.results[0].replay.error).toBe('a non-Error value was thrown: {"status":503}');
    }
  });

  it("aborts a bounded replay's signal when its budget runs out, with the timeout as the reason", async () => {
    const signals: AbortSignal[] = [];
    const replay = (_s: unknown, _spec: unknown, { signal }: { signal?: AbortSignal }) => {
      signals.push(signal!);
      return new Promise(() => {});
    };
    await new Runner({ scenarios: scenarios.slice(0, 1), models: models.slice(0, 1), replay, replayTimeoutMs: 20 }).run();
    expect(signals).toHaveLength(1);
    expect(signals[0].aborted).toBe(true);
    expect(signals[0].reason).toBeInstanceOf(ReplayTimeoutError);
    // Unbounded, no signal is given: nothing would abort it.
    const unbounded: Array<AbortSignal | undefined> = [];
    await new Runner({ scenarios: scenarios.slice(0, 1), models: models.slice(0, 1), replay: (_s, _spec, { signal }) => (unbounded.push(signal), { answer: "ok" }) }).run();
    expect(unbounded).toEqual([undefined]);
  });

  it("wraps each evaluation in aroundEvaluation, runs onResult after it, and propagates its errors", async () => {
    const events: string[] = [];
    await new Runner({
      scenarios: scenarios.slice(0, 1), models: models.slice(0, 1), replay: good,
      aroundEvaluation: async (context, next) => { events.push(`before ${context.scenario.key}`); const r = await next(); events.push("after"); return r; },
      onResult: () => { events.push("onResult"); },
    }).run();
    expect(events).toEqual(["before orders_1", "after", "onResult"]);

    const failing = new Runner({ scenarios, models, replay: good, aroundEvaluation: async () => { throw new Error("tracer down"); } });
    await expect(failing.run()).rejects.toThrow("tracer down");
    const wrong = new Runner({ scenarios, models, replay: good, aroundEvaluation: async (_c, next) => { await next(); return {} as never; } });
    await expect(wrong.run()).rejects.toThrow(/aroundEvaluation must return the Result/);
  });

  it("evaluate() bypasses the wrapper and onResult, and scores a replay already held", async () => {
    const around = vi.fn();
    const onResult = vi.fn();
    const runner = new Runner({ scenarios, models, replay: () => { throw new Error("not called"); }, aroundEvaluation: around, onResult });
    const result = await runner.evaluate(scenarios[1], models[0], new Replay({ answer: "I cannot do that, sorry, it is not possible for me here today." }));
    expect(result.fault).toBe("forbidden_content");
    expect(around).not.toHaveBeenCalled();
    expect(onResult).not.toHaveBeenCalled();
  });

  it("refuses settings that cannot be meant, naming the option and the rule", () => {
    const replay = () => ({ answer: "An answer." });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ concurrency: 0 }, /concurrency must be a positive integer, got 0/],
      [{ replayTimeoutMs: -1 }, /replayTimeoutMs must be a positive number, got -1/],
      [{ threshold: 2 }, /threshold must be a number from 0 to 1, got 2/],
      [{ threshold: Number.NaN }, /threshold must be a number from 0 to 1, got NaN/],
      [{ threshold: "0.7" }, /threshold must be a number from 0 to 1, got the text "0.7"/],
      [{ judgeLimit: -1 }, /judgeLimit must be a whole number of calls, 0 or more/],
      [{ judgeLimit: 2.5 }, /judgeLimit must be a whole number of calls, 0 or more/],
    ];
    for (const [options, message] of cases) expect(() => new Runner({ scenarios, models, replay, ...options } as never), JSON.stringify(options)).toThrow(message);
    expect(() => new Runner({ scenarios, models, replay, threshold: 0, judgeLimit: Infinity })).not.toThrow();
    expect(() => new Runner({ scenarios, models, replay, threshold: 1, judgeLimit: 0 })).not.toThrow();
  });

  it("refuses an option it does not read, naming the one a typo meant, and callbacks, text and flags of the wrong type", () => {
    const replay = () => ({ answer: "An answer." });
    const cases: [Record<string, unknown>, string | RegExp][] = [
      // Each ran on the default before (0.7, one at a time).
      [{ treshold: 0.95 }, /^Runner: unknown option treshold \(did you mean threshold\?\); it reads scenarios, models, replay/],
      [{ concurency: 0 }, /^Runner: unknown option concurency \(did you mean concurrency\?\)/],
      [{ colour: "red" }, /^Runner: unknown option colour; it reads /],
      // Failed only after the first replay, losing the run's results.
      [{ onResult: 3 }, "Runner: onResult must be a function or null, got a number"],
      [{ refineGate: "yes" }, "Runner: refineGate must be a function or null, got a string"],
      [{ agentName: 3 }, "Runner: agentName must be text or null, got a number"],
      [{ instructions: ["be brief"] }, "Runner: instructions must be text or null, got an array"],
      [{ judgeTask: "no" }, "Runner: judgeTask must be true or false, got a string"],
      [{ metadata: "x" }, "Runner: metadata must be an object or null, got a string"],
    ];
    for (const [options, message] of cases) expect(() => new Runner({ scenarios, models, replay, ...options } as never), JSON.stringify(options)).toThrow(message);
  });

  it("refuses a model listed twice, naming its label, rather than running it twice and doubling its row", () => {
    const replay = () => ({ answer: "An answer." });
    const [m] = ModelSpec.parseAll(["gpt-5-mini"], { defaultProvider: "openai" });
    expect(() => new Runner({ scenarios, models: [m, m], replay })).toThrow('Runner: models[1] repeats the label "gpt-5-mini": each model must have its own label');
  });

  it("refuses a scenario key given twice or blank, whose report could not be read back (Report.fromJSON refuses it)", () => {
    const replay = () => ({ answer: "An answer." });
    const twice = [new Scenario({ key: "k", prompt: "One?" }), new Scenario({ key: "k", prompt: "Two?" })];
    expect(() => new Runner({ scenarios: twice, models, replay })).toThrow('Runner: scenarios[1] repeats the key "k": each scenario must have its own key');
    expect(() => new Runner({ scenarios: [new Scenario({ key: " ", prompt: "Blank?" })], models, replay })).toThrow('Runner: scenarios[0].key must be non-blank text, got " "');
  });

  it("refuses options of the wrong shape, naming the option, the index and what to pass", () => {
    const replay = () => ({ answer: "An answer." });
    const cases: [Record<string, unknown>, string][] = [
      [{ models: ["gpt-5-mini"] }, "Runner: models[0] must be a ModelSpec (ModelSpec.parse / parseAll), got a string"],
      [{ models: [models[0], { label: "x" }] }, "Runner: models[1] must be a ModelSpec (ModelSpec.parse / parseAll), got an object without a string provider"],
      [{ scenarios: ["hi"] }, "Runner: scenarios[0] must be a Scenario (new Scenario / ScenarioParser.scenarios), got a string"],
      [{ judge: {} }, "Runner: judge must be a Judge (new Judge({ label, complete })) or null, got an object without scoreTask()"],
      [{ availableTools: 5 }, "Runner: availableTools must be a map of name -> description or a list of names or { name, description }, got a number"],
      [{ availableTools: ["lookup_order", 5] }, "Runner: availableTools[1] must be a tool name or { name, description }, got a number"],
      [{ refineFaults: "low_quality" }, "Runner: refineFaults must be an array of fault names, got a string"],
      [{ refineFaults: ["low_qualty"] }, 'Runner: refineFaults[0] must be one of run_error, tool_error, missing_capability, expected_tool_not_called, ungrounded_answer, forbidden_content, missing_content, low_quality, judge_unavailable, got "low_qualty"'],
    ];
    for (const [options, message] of cases) expect(() => new Runner({ scenarios, models, replay, ...options } as never), JSON.stringify(options)).toThrow(message);
    const judge = new Judge({ label: "j", complete: () => '{"score": 1}' });
    expect(() => new Runner({ scenarios, models, replay, judge, onResult: null, refineGate: null, agentName: null, instructions: "Be brief", judgeTask: false, metadata: { ci: 1 }, release: null, links: {} })).not.toThrow();
    expect(() => new Runner({ scenarios, models, replay, judge, availableTools: { lookup_order: "Looks an order up" }, refineFaults: ["low_quality"] })).not.toThrow();
    expect(() => new Runner({ scenarios, models, replay, judge: null, availableTools: [{ name: "lookup_order" }], refineFaults: [] })).not.toThrow();
  });

  it("replays in parallel with concurrency > 1 and keeps scenario x model order", async () => {
    let inFlight = 0;
    let most = 0;
    const many = Array.from({ length: 6 }, (_, i) => new Scenario({ key: `s${i}`, prompt: `Question ${i}` }));
    const report = await new Runner({
      scenarios: many, models, concurrency: 4,
      replay: async (scenario) => {
        inFlight += 1; most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 10 - Number(scenario.key.slice(1))));
        inFlight -= 1;
        return { answer: `A long enough answer to ${scenario.key}, with details and a next step.` };
      },
    }).run();
    expect(most).toBe(4);
    expect(report.results.map((r) => `${r.scenario.key}/${r.label}`)).toEqual(many.flatMap((s) => models.map((m) => `${s.key}/${m.label}`)));
  });

  it("starts no more pairs once an evaluation has thrown, with concurrency > 1", async () => {
    const many = Array.from({ length: 6 }, (_, i) => new Scenario({ key: `s${i}`, prompt: `Question ${i}` }));
    const replayed: string[] = [];
    const runner = new Runner({
      scenarios: many, models: models.slice(0, 1), concurrency: 2,
      replay: async (scenario) => { replayed.push(scenario.key); await new Promise((r) => setTimeout(r, 10)); return { answer: "A long enough answer with details." }; },
      aroundEvaluation: async ({ scenario }, next) => { if (scenario.key === "s0") throw new Error("tracer down"); return next(); },
    });
    await expect(runner.run()).rejects.toThrow("tracer down");
    await new Promise((r) => setTimeout(r, 100));
    // s1 was already in flight beside s0; nothing after it was started.
    expect(replayed).toEqual(["s1"]);
  });

  it("rejects only once the pairs in flight have settled, and calls no onResult after the failure", async () => {
    const many = Array.from({ length: 4 }, (_, i) => new Scenario({ key: `s${i}`, prompt: `Question ${i}` }));
    const finished: string[] = [];
    const reported: string[] = [];
    const runner = new Runner({
      scenarios: many, models: models.slice(0, 1), concurrency: 2,
      replay: async (scenario) => {
        await new Promise((r) => setTimeout(r, scenario.key === "s1" ? 40 : 5));
        finished.push(scenario.key);
        return { answer: "A long enough answer with details." };
      },
      onResult: (result) => {
        if (result.scenario.key === "s0") throw new Error("store down");
        reported.push(result.scenario.key);
      },
    });
    await expect(runner.run()).rejects.toThrow("store down");
    // s1 was in flight beside s0: it had ended when run() rejected, and was not reported.
    expect(finished).toEqual(["s0", "s1"]);
    expect(reported).toEqual([]);
  });

  it("aborts the signal of every replay in flight when the run fails, naming the first error, with concurrency > 1", async () => {
    const many = Array.from({ length: 4 }, (_, i) => new Scenario({ key: `s${i}`, prompt: `Question ${i}` }));
    const signals: Record<string, AbortSignal | undefined> = {};
    const failure = new Error("store down");
    const started = Date.now();
    const runner = new Runner({
      scenarios: many, models: models.slice(0, 1), concurrency: 3,
      // Unbounded (no replayTimeoutMs): s1 and s2 would run 5 s unless their signal stops them.
      replay: (scenario, _spec, { signal }) => {
        signals[scenario.key] = signal;
        const ms = scenario.key === "s0" ? 5 : 5_000;
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve({ answer: "A long enough answer with details." }), ms);
          signal?.addEventListener("abort", () => { clearTimeout(timer); reject(signal.reason as Error); });
        });
      },
      onResult: (result) => { if (result.scenario.key === "s0") throw failure; },
    });
    const rejection = await runner.run().catch((error: unknown) => error);
    expect(rejection).toBe(failure);
    expect(Date.now() - started).toBeLessThan(2_000);
    // s3 never started; s1 and s2 were cancelled with a reason that names why.
    expect(Object.keys(signals).sort()).toEqual(["s0", "s1", "s2"]);
    expect(signals.s0?.aborted).toBe(false);
    for (const key of ["s1", "s2"]) {
      const reason = signals[key]?.reason as RunFailedError;
      expect(signals[key]?.aborted).toBe(true);
      expect(reason).toBeInstanceOf(RunFailedError);
      expect(reason.cause).toBe(failure);
      expect(reason.message).toBe("the run failed (Error: store down), so this replay was cancelled");
    }
  });

  it("starts no replay once the run has failed, even when a wrapper calls next() after", async () => {
    const many = Array.from({ length: 2 }, (_, i) => new Scenario({ key: `s${i}`, prompt: `Question ${i}` }));
    const replayed: string[] = [];
    let failedAt: (() => void) | null = null;
    const failed = new Promise<void>((resolve) => { failedAt = resolve; });
    const yielded: Result[] = [];
    const runner = new Runner({
      scenarios: many, models: models.slice(0, 1), concurrency: 2,
      replay: (scenario) => { replayed.push(scenario.key); return { answer: "A long enough answer with details." }; },
      aroundEvaluation: async ({ scenario }, next) => {
        if (scenario.key === "s0") { setTimeout(() => failedAt?.(), 0); throw new Error("tracer down"); }
        await failed;
        const result = await next();
        yielded.push(result);
        return result;
      },
    });
    await expect(runner.run()).rejects.toThrow("tracer down");
    expect(replayed).toEqual([]);
    expect(yielded.map((r) => [r.status, r.replay.error])).toEqual([["errored", "RunFailedError: the run failed (Error: tracer down), so this replay was cancelled"]]);
  });

  it("asks the judge nothing more for the pairs in flight once the run has failed, even when their agent answers", async () => {
    const many = Array.from({ length: 2 }, (_, i) => new Scenario({ key: `s${i}`, prompt: `Question ${i}` }));
    const { judge, calls } = fakeJudge(() => '{"score": 0.2}');
    const runner = new Runner({
      scenarios: many, models: models.slice(0, 1), concurrency: 2, judge, refineFaults: ["low_quality"],
      // s1's agent ignores its signal and answers after s0 failed the run.
      replay: async (scenario) => {
        await new Promise((r) => setTimeout(r, scenario.key === "s0" ? 1 : 30));
        return { answer: `A long enough answer to ${scenario.key}, with details.` };
      },
      onResult: () => { throw new Error("store down"); },
    });
    await expect(runner.run()).rejects.toThrow("store down");
    // s0's grade and recommendation only: nothing for s1.
    expect(calls.map((c) => c.kind)).toEqual(["score", "recommend"]);
  });

  it("rejects with the first error as thrown, the later ones on its non-enumerable suppressedErrors", async () => {
    const many = Array.from({ length: 3 }, (_, i) => new Scenario({ key: `s${i}`, prompt: `Question ${i}` }));
    class StoreError extends Error {}
    const errors = many.map((s) => new StoreError(`store down at ${s.key}`));
    const runner = new Runner({
      scenarios: many, models: models.slice(0, 1), concurrency: 3,
      replay: () => ({ answer: "A long enough answer with details." }),
      // All three are reported together, then fail one after another.
      onResult: async (result) => {
        const i = Number(result.scenario.key.slice(1));
        await new Promise((r) => setTimeout(r, 5 + 10 * i));
        throw errors[i];
      },
    });
    const rejection = await runner.run().catch((error: unknown) => error);
    expect(rejection).toBe(errors[0]);
    expect(rejection).toBeInstanceOf(StoreError);
    expect((rejection as { suppressedErrors?: unknown }).suppressedErrors).toEqual([errors[1], errors[2]]);
    expect(Object.keys(rejection as object)).not.toContain("suppressedErrors");
    // A thrown value that cannot carry them is thrown as it is.
    const frozen = Object.freeze(new Error("frozen"));
    const plain = new Runner({
      scenarios: many.slice(0, 2), models: models.slice(0, 1), concurrency: 2,
      replay: () => ({ answer: "A long enough answer with details." }),
      onResult: async (result) => { if (result.scenario.key === "s1") { await new Promise((r) => setTimeout(r, 5)); throw new Error("later"); } throw frozen; },
    });
    await expect(plain.run()).rejects.toBe(frozen);
  });

  it("with requireJudgeScores and no judge, an llm_judge criterion is a missing grade", async () => {
    const criteria = [{ key: "tone", type: "llm_judge" }];
    const report = await new Runner({ scenarios: scenarios.slice(1), models: models.slice(0, 1), replay: good, criteria, requireJudgeScores: true }).run();
    expect(report.results[0]).toMatchObject({ status: "failed", fault: "judge_unavailable" });
    expect(report.results[0].diagnosis?.evidence).toEqual({ unscored_criteria: ["tone"] });
    // Rules-only runs are unaffected.
    const rules = await new Runner({ scenarios: scenarios.slice(1), models: models.slice(0, 1), replay: good, requireJudgeScores: true }).run();
    expect(rules.results[0].status).toBe("passed");
  });

  it("carries Correlation ids onto each result when used as aroundEvaluation", async () => {
    let n = 0;
    const correlation = new Correlation({ agentName: "SupportAgent", ids: () => `id-${(n += 1)}` });
    const metadata: Record<string, unknown> = { suite: "support" };
    const report = await correlation.withRun(metadata, (run) =>
      new Runner({ scenarios: scenarios.slice(0, 1), models: models.slice(0, 1), replay: good, metadata: run, aroundEvaluation: correlation }).run(),
    );
    expect(report.metadata).toBe(metadata);
    expect(report.results[0].replay.metadata).toMatchObject({ run_id: "id-1", result_id: "id-2", scenario_key: "orders_1", model_label: "gpt-5-mini" });
  });
});

describe("Runner with a judge", () => {
  it("asks for task completion, refines failures within the limit, and picks a verdict", async () => {
    const { judge, calls } = fakeJudge((kind) => {
      if (kind === "score") return '{"score": 0.9}';
      if (kind === "recommend") return '{"recommendation": "Call lookup_order first.", "suggested_tool": "lookup_order", "instruction_change": "Look orders up."}';
      return '{"winner": "claude-sonnet-5", "rationale": "Same pass rate, better answers."}';
    });
    const replay = (scenario: Scenario, spec: ModelSpec) => (spec.label === "gpt-5-mini" ? { answer: "Your order is fine, it ships soon enough, no worries at all." } : good(scenario));
    const report = await new Runner({ scenarios, models, replay, judge, judgeLimit: 1, instructions: "Be helpful." }).run();
    const kinds = calls.map((c) => c.kind);
    expect(kinds.filter((k) => k === "score")).toHaveLength(4);
    expect(kinds.filter((k) => k === "recommend")).toHaveLength(1);
    expect(kinds.at(-1)).toBe("verdict");
    expect(calls.at(-1)!.prompt).toContain("Be helpful.");
    const failed = report.results[0];
    expect(failed.scores.task_completion).toBe(0.9);
    expect(failed.fault).toBe("expected_tool_not_called");
    expect(failed.recommendation).toBe("Call lookup_order first.");
    expect(report.verdict).toEqual({ winner: "claude-sonnet-5", rationale: "Same pass rate, better answers.", judge: "judge-model" });
    expect(report.judgeUsage?.calls).toBe(6);
    expect(report.fixItems.some((item) => item.kind === "instruction" && item.quote === "Look orders up.")).toBe(true);
  });

  it("leaves an out-of-range judge score ungraded, never clamped to a pass or a fail; with requireJudgeScores it is a missing grade", async () => {
    const cancel = [new Scenario({ key: "s1", prompt: "Cancel my subscription" })];
    const replay = () => ({ answer: "Done — your subscription is cancelled." });
    const run = (raw: string, requireJudgeScores: boolean) => new Runner({ scenarios: cancel, models: models.slice(0, 1), replay, requireJudgeScores,
      judge: fakeJudge((kind) => (kind === "score" ? raw : "{}")).judge }).run();

    for (const raw of ['{"score": -0.2}', '{"score": 8}']) {
      const lenient = (await run(raw, false)).results[0];
      expect(lenient.scores.task_completion).toBeNull();
      expect(lenient).toMatchObject({ status: "passed", fault: null });
      const strict = (await run(raw, true)).results[0];
      expect(strict).toMatchObject({ status: "failed", fault: "judge_unavailable", scores: { task_completion: null } });
      expect(strict.diagnosis?.evidence).toEqual({ unscored_criteria: ["task_completion"] });
    }
  });

  it("counts a failed refinement call against the limit and lets refineGate veto calls", async () => {
    const { judge, calls } = fakeJudge((kind) => { if (kind === "recommend") throw new Error("judge down"); return "not json"; });
    const bad = () => ({ answer: "" });
    const runner = new Runner({ scenarios, models: models.slice(0, 1), replay: bad, judge, judgeLimit: 5, refineFaults: ["run_error"] });
    const report = await runner.run();
    expect(report.results.every((r) => r.fault === "run_error")).toBe(true);
    expect(runner.refinements).toBe(2);
    expect(calls.filter((c) => c.kind === "recommend")).toHaveLength(2);

    // Pairs in flight together all pass the limit's check while their gates are awaited.
    const parallel = fakeJudge((kind) => (kind === "recommend" ? '{"recommendation": "Retry."}' : "not json"));
    const four = Array.from({ length: 4 }, (_, i) => new Scenario({ key: `s${i}`, prompt: `Question ${i}` }));
    const limited = new Runner({ scenarios: four, models: models.slice(0, 1), replay: bad, judge: parallel.judge, judgeLimit: 1, concurrency: 4, refineFaults: ["run_error"], refineGate: () => true });
    await limited.run();
    expect([limited.refinements, parallel.calls.filter((c) => c.kind === "recommend").length]).toEqual([1, 1]);

    const gate = vi.fn(() => false);
    const gated = new Runner({ scenarios, models: models.slice(0, 1), replay: bad, judge, refineFaults: ["run_error"], refineGate: gate });
    await gated.run();
    expect(gate).toHaveBeenCalledTimes(2);
    expect(gated.refinements).toBe(0);
  });

  it("completes the run when the judge never answers: each call past the judge's timeout is skipped, with its reason", async () => {
    const judge = new Judge({ label: "j", timeoutMs: 20, complete: () => new Promise<string>(() => {}) });
    const scored: Result[] = [];
    const report = await new Runner({ scenarios: scenarios.slice(0, 1), models: models.slice(0, 1), replay: good, judge, onResult: (result) => { scored.push(result); } }).run();
    expect(scored[0].judgeExchanges[0]).toMatchObject({ kind: "score", skipped: true, unusable_reason: "the judge call failed: JudgeTimeout: no answer within 20 ms" });
    expect(report.results[0].status).toBe("passed");
  });

  it("leaves an unusable task grade out of the score", async () => {
    const { judge } = fakeJudge(() => '{"score": "high"}');
    const report = await new Runner({ scenarios: scenarios.slice(1), models: models.slice(0, 1), replay: good, judge }).run();
    expect(report.results[0].scores.task_completion).toBeNull();
    expect(report.results[0].status).toBe("passed");
  });
});

describe("Runner defaults and callbacks", () => {
  const orderLookup = (i: number) => new Scenario({ key: `order_${String(i).padStart(2, "0")}`, prompt: `Where is order ${i}?`, expectedTools: ["lookup_order"] });
  const noLookup = () => ({ answer: "Your order is on its way, it should arrive within a few days." });

  it("asks the judge for at most 25 recommendations per run by default", async () => {
    const { judge, calls } = fakeJudge((kind) => (kind === "recommend" ? '{"recommendation": "Call lookup_order first."}' : "not json"));
    const runner = new Runner({ scenarios: Array.from({ length: 30 }, (_, i) => orderLookup(i)), models: models.slice(0, 1), replay: noLookup, judge });
    const report = await runner.run();
    expect(report.results.filter((r) => r.fault === "expected_tool_not_called")).toHaveLength(30);
    expect(calls.filter((c) => c.kind === "recommend")).toHaveLength(25);
    expect(runner.refinements).toBe(25);
  });

  it("fails a task-completion grade of 0.6 under the default threshold of 0.7, and passes it at threshold 0.6", async () => {
    const cancel = [new Scenario({ key: "cancel", prompt: "Cancel my subscription" })];
    const replay = () => ({ answer: "Done — your subscription is cancelled." });
    const run = (threshold?: number) => new Runner({ scenarios: cancel, models: models.slice(0, 1), replay, judge: fakeJudge((kind) => (kind === "score" ? '{"score": 0.6}' : "{}")).judge, ...(threshold === undefined ? {} : { threshold }) }).run();
    const strict = (await run()).results[0];
    expect(strict.scores.task_completion).toBe(0.6);
    expect(strict.status).toBe("failed");
    expect((await run(0.6)).results[0].status).toBe("passed");
  });

  it("waits for an async onResult: every call finishes before run() resolves, and a rejection fails the run", async () => {
    const stored: string[] = [];
    const onResult = async (result: Result) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      stored.push(result.scenario.key);
    };
    await new Runner({ scenarios, models, replay: good, onResult }).run();
    expect(stored).toEqual(["orders_1", "orders_1", "cancel", "cancel"]);

    const failing = new Runner({ scenarios, models: models.slice(0, 1), replay: good, onResult: () => Promise.reject(new Error("store down")) });
    await expect(failing.run()).rejects.toThrow("store down");
  });

  it("asks for no recommendation when refineFaults is empty", async () => {
    const { judge, calls } = fakeJudge((kind) => (kind === "recommend" ? '{"recommendation": "Call lookup_order first."}' : "not json"));
    const runner = new Runner({ scenarios: [orderLookup(1)], models: models.slice(0, 1), replay: noLookup, judge, refineFaults: [] });
    const report = await runner.run();
    expect(report.results[0].fault).toBe("expected_tool_not_called");
    expect(calls.filter((c) => c.kind === "recommend")).toHaveLength(0);
    expect(runner.refinements).toBe(0);
  });

  it("asks for no task-completion grade when an llm_judge criterion grades the answer", async () => {
    const { judge, calls } = fakeJudge((kind) => (kind === "score" ? '{"score": 0.9}' : "{}"));
    const criteria = [{ key: "tone", type: "llm_judge", config: { prompt: "Is the tone kind?" } }];
    const report = await new Runner({ scenarios: scenarios.slice(1), models: models.slice(0, 1), replay: good, judge, criteria }).run();
    expect(calls.filter((c) => c.kind === "score")).toHaveLength(1);
    expect(report.results[0].scores.tone).toBe(0.9);
    expect("task_completion" in report.results[0].scores).toBe(false);
  });

  it("keeps a judge_usage the host set on the replay instead of writing the Runner's own", async () => {
    const { judge } = fakeJudge((kind) => (kind === "score" ? '{"score": 0.9}' : "{}"));
    const hostUsage = { calls: 3, input_tokens: 900, output_tokens: 60, cost: 0.0042, source: "traces" };
    const replay = () => ({ answer: "Done — your subscription is cancelled.", metadata: { judge_usage: hostUsage } });
    const scored: Result[] = [];
    const report = await new Runner({ scenarios: scenarios.slice(1), models: models.slice(0, 1), replay, judge, onResult: (result) => { scored.push(result); } }).run();
    expect(scored[0].judgeExchanges).toHaveLength(1);
    expect(report.results[0].replay.metadata.judge_usage).toEqual(hostUsage);
  });
});

describe("the replay's spec type", () => {
  // It was `any`: `spec.modle` type-checked and sent undefined to the host's agent.
  it("is the type of the models the Runner is given", async () => {
    const scenarios = [new Scenario({ key: "a", prompt: "Hi" })];
    const given = new Runner({ scenarios, models, replay: (_scenario, spec) => ({ answer: spec.toJSON().label }) });
    expect((await given.run()).results.map((result) => result.replay.answer)).toEqual(["gpt-5-mini", "claude-sonnet-5"]);
    const plain = [{ label: "a", provider: "openai", model: "m" }];
    // @ts-expect-error a RunnerSpec has no `modle`
    expect(() => new Runner({ scenarios, models: plain, replay: (_scenario, spec) => ({ answer: spec.modle }) })).not.toThrow();
  });
});
