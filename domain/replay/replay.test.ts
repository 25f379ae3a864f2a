import { describe, expect, it } from "vitest";
import { Replay, ReplayError } from "./index.js";

class RateLimitError extends Error {}

describe("Replay.from", () => {
  it("reads the guide's snake_case keys", () => {
    const replay = Replay.from({
      answer: "Order 4821 shipped on 2026-05-02 via UPS.",
      tool_calls: [{ name: "lookup_order", arguments: { number: "4821" }, result: { status: "shipped" } }],
      duration_ms: 1840,
      input_tokens: 2328,
      output_tokens: 423,
      cost: 0.02433,
      metadata: { chat_id: 77 },
    });
    expect(replay.answer).toBe("Order 4821 shipped on 2026-05-02 via UPS.");
    expect(replay.toolNames).toEqual(["lookup_order"]);
    expect(replay.durationMs).toBe(1840);
    expect(replay.totalTokens).toBe(2751);
    expect(replay.cost).toBe(0.02433);
    expect(replay.metadata).toEqual({ chat_id: 77 });
    expect(replay.errored).toBe(false);
  });

  it("keeps its own copy of the metadata, a `__proto__` key as a plain key", () => {
    const metadata = JSON.parse('{"chat_id": 77, "__proto__": {"admin": true}}') as Record<string, unknown>;
    const replay = new Replay({ metadata });
    metadata.chat_id = 78;
    expect(replay.metadata.chat_id).toBe(77);
    expect(Object.getPrototypeOf(replay.metadata)).toBe(Object.prototype);
    expect((replay.metadata as { admin?: boolean }).admin).toBeUndefined();
    expect(Object.keys(replay.metadata)).toEqual(["chat_id", "__proto__"]);
    expect(replay.toJSON().metadata).toEqual(JSON.parse('{"chat_id": 77, "__proto__": {"admin": true}}'));
  });

  it("reads camelCase keys, tool call durations included", () => {
    const replay = Replay.from({
      answer: "Refund issued.",
      toolCalls: [{ name: "refund_order", durationMs: 120 }],
      durationMs: 900,
      inputTokens: 10,
      outputTokens: 5,
    });
    expect(replay.toolCalls[0]).toEqual({ name: "refund_order", duration_ms: 120 });
    expect(replay.inputTokens).toBe(10);
    expect(replay.outputTokens).toBe(5);
  });

  it("returns a Replay unchanged", () => {
    const replay = new Replay({ answer: "Hi" });
    expect(Replay.from(replay)).toBe(replay);
  });

  it("names an unknown key", () => {
    expect(() => Replay.from({ answer: "ok", toolcalls: [] })).toThrow(ReplayError);
    expect(() => Replay.from({ answer: "ok", toolcalls: [] })).toThrow("replay.toolcalls: unknown key");
    // Keys Object.prototype has are keys like any other: unknown, not found on the prototype and dropped.
    for (const key of ["constructor", "toString", "hasOwnProperty"]) expect(() => Replay.from({ answer: "ok", [key]: 1 }), key).toThrow(`replay.${key}: unknown key`);
  });

  it("refuses a key given in both spellings", () => {
    expect(() => Replay.from({ durationMs: 5, duration_ms: 6 })).toThrow("replay.duration_ms: given twice (also as durationMs)");
  });

  it("names a field of the wrong type", () => {
    expect(() => Replay.from({ answer: 42 })).toThrow("replay.answer: must be a string or null, got the number 42");
    expect(() => Replay.from({ output_tokens: "many" })).toThrow(/replay\.output_tokens: must be a non-negative number/);
    expect(() => Replay.from({ tool_calls: "lookup_order" })).toThrow(/replay\.tool_calls: must be an array/);
    expect(() => Replay.from({ cost: Number.NaN })).toThrow(/replay\.cost: must be a non-negative finite number/);
    expect(() => Replay.from({ answer: "ok", cost: -0.5 })).toThrow("replay.cost: must be a non-negative finite number (USD) or null, got the number -0.5");
    expect(Replay.from({ answer: "ok", cost: 0 }).cost).toBe(0);
    expect(() => Replay.from({ metadata: [] })).toThrow("replay.metadata: must be an object, got an array");
    expect(() => Replay.from("answer")).toThrow(/replay\.\(root\): must be a Replay or an object/);
    expect(() => Replay.from(null)).toThrow(ReplayError);
  });

  it("carries a validation code for the API's error mapping", () => {
    try {
      Replay.from({ nope: 1 });
      expect.unreachable();
    } catch (error) {
      expect((error as ReplayError).code).toBe("validation");
      expect((error as ReplayError).field).toBe("nope");
    }
  });
});

describe("tool calls", () => {
  it("turns a non-object call into a named call", () => {
    const replay = new Replay({ toolCalls: ["search_tickets", { name: "lookup_customer" }] });
    expect(replay.toolCalls).toEqual([{ name: "search_tickets" }, { name: "lookup_customer" }]);
  });

  it("counts a call as failed by Ruby truthiness of its error", () => {
    const replay = new Replay({
      toolCalls: [
        { name: "a", error: "timeout" },
        { name: "b", error: 0 },
        { name: "c", error: "" },
        { name: "d", error: false },
        { name: "e", error: null },
        { name: "f" },
      ],
    });
    expect(replay.failedToolCalls.map((call) => call.name)).toEqual(["a", "b", "c"]);
  });

  it("keeps repeats in tool names and reads a missing name as empty", () => {
    const replay = new Replay({ toolCalls: [{ name: "search" }, { name: "search" }, { arguments: {} }] });
    expect(replay.toolNames).toEqual(["search", "search", ""]);
  });
});

describe("Replay.from's tool calls", () => {
  // Each was read with no name and scored as the expected tool not called, with no hint of the typo.
  it("refuses a nameless call whose name is written where another shape keeps it, naming the call and the key", () => {
    expect(() => Replay.from({ answer: "ok", tool_calls: [{ tool: "lookup_order" }] })).toThrow(
      new ReplayError("tool_calls[0].tool", "unknown key; did you mean name?"),
    );
    expect(() => Replay.from({ toolCalls: [{ name: "a" }, { function: { name: "lookup_order", arguments: "{}" } }] })).toThrow(
      "replay.toolCalls[1].function: unknown key; did you mean name?",
    );
    expect(() => Replay.from({ tool_calls: [{ toolName: "lookup_order" }] })).toThrow("replay.tool_calls[0].toolName: unknown key; did you mean name?");
    expect(() => Replay.from({ tool_calls: [{ Name: "lookup_order" }] })).toThrow("replay.tool_calls[0].Name: unknown key; did you mean name?");
  });

  it("refuses a call with no name, or a blank or non-string one", () => {
    expect(() => Replay.from({ tool_calls: [{ arguments: {} }] })).toThrow("replay.tool_calls[0].name: must be the tool's name, a non-blank string, got undefined");
    expect(() => Replay.from({ tool_calls: [{ name: 5 }] })).toThrow("replay.tool_calls[0].name: must be the tool's name, a non-blank string, got the number 5");
    expect(() => Replay.from({ tool_calls: [{ name: " " }] })).toThrow(/tool_calls\[0\]\.name: must be the tool's name/);
  });

  it("are read as given by Replay.recorded, so a run recorded before these checks still rebuilds", () => {
    expect(Replay.recorded({ answer: "ok", tool_calls: [{ name: "", tool: "a" }] }).toolCalls).toEqual([{ name: "", tool: "a" }]);
    expect(() => Replay.recorded({ answr: "ok" })).toThrow("replay.answr: unknown key");
  });

  it("keeps a host's own keys, and a call given as its name, as reference-core §6 stores them", () => {
    const replay = Replay.from({ tool_calls: [{ name: "a", id: "call_1", server: "orders", durationMs: 4 }, "b"] });
    expect(replay.toolCalls).toEqual([{ name: "a", id: "call_1", server: "orders", duration_ms: 4 }, { name: "b" }]);
    // Beside a name, keys that read like one of ours are a host's own too: a reply that replayed before still does.
    const own = [{ name: "a", time: 1, date: "d", node: "n", details: {}, results: [], argumnts: {} }, { name: "b", function: { name: "b", arguments: "{}" } }];
    expect(Replay.from({ tool_calls: own }).toolCalls).toEqual(own);
  });
});

describe("Replay.from refuses what JSON cannot hold", () => {
  it("names a cycle's or a BigInt's path and the rule; shared (acyclic) values, Dates and an Error with cyclic fields pass", () => {
    const args: Record<string, unknown> = { x: 1 };
    args.self = args;
    expect(() => Replay.from({ answer: "a", toolCalls: [{ name: "lookup_order", arguments: args }] })).toThrow(
      "replay.toolCalls[0].arguments.self: circular (it contains itself), which JSON cannot hold: give a copy without the cycle",
    );
    expect(() => Replay.from({ answer: "a", tool_calls: [{ name: "t", result: 10n }] })).toThrow("replay.tool_calls[0].result: a BigInt (10n), which JSON cannot hold: give a number or a string");
    expect(() => Replay.from({ answer: "a", metadata: { usage: [1, { n: 2n }] } })).toThrow(/^replay\.metadata\.usage\[1\]\.n: a BigInt/);
    const shared = { id: 7 };
    expect(Replay.from({ answer: "a", tool_calls: [{ name: "t", arguments: shared, result: shared }], metadata: { at: new Date(0) } }).toolCalls[0].result).toEqual({ id: 7 });
    const failure = Object.assign(new Error("socket hang up"), { request: {} as Record<string, unknown> });
    failure.request.self = failure.request;
    expect(Replay.from({ error: failure }).error).toBe("Error: socket hang up");
    expect(() => Replay.from({ answer: "a", tool_calls: [{ name: "t", result: args }] })).toThrow(ReplayError);
  });
});

describe("errors", () => {
  it("writes an exception as class and message", () => {
    expect(Replay.failed(new TypeError("fetch failed")).error).toBe("TypeError: fetch failed");
    expect(Replay.failed(new RateLimitError("429 Too Many Requests")).error).toBe("RateLimitError: 429 Too Many Requests");
    expect(Replay.failed(new Error("boom")).error).toBe("Error: boom");
    expect(Replay.failed("provider down").error).toBe("provider down");
  });

  it("shows a thrown non-Error object as JSON, and never throws for one String() cannot read", () => {
    expect(Replay.failed({ code: 42, message: "boom" }).error).toBe('a non-Error value was thrown: {"code":42,"message":"boom"}');
    const bare = Object.assign(Object.create(null) as object, { status: 503 });
    expect(Replay.failed(bare).error).toBe('a non-Error value was thrown: {"status":503}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(Replay.failed(cyclic).error).toBe("a non-Error value was thrown: [object Object]");
    expect(Replay.failed({ toString: () => "custom text" }).error).toBe("custom text");
    expect(Replay.failed(42).error).toBe("42");
    expect(Replay.failed(null).error).toBe("null");
  });

  it("keeps other fields on a failed replay", () => {
    const replay = Replay.failed("timeout", { durationMs: 30_000 });
    expect(replay.errored).toBe(true);
    expect(replay.durationMs).toBe(30_000);
  });

  it("does not treat an empty or blank error as one", () => {
    expect(new Replay({ error: "" }).errored).toBe(false);
    expect(new Replay({ error: "   " }).errored).toBe(false);
  });
});

describe("cost metadata", () => {
  it("reads cost_source, or infers reported / unpriced", () => {
    expect(new Replay({ cost: 0.01 }).costSource).toBe("reported");
    expect(new Replay({}).costSource).toBe("unpriced");
    expect(new Replay({ cost: 0, metadata: { cost_source: "no_usage" } }).costSource).toBe("no_usage");
    expect(new Replay({ cost: 0.02433, metadata: { cost_source: "estimated" } }).costSource).toBe("estimated");
  });

  it("reads cost_rate and judge_usage back as objects", () => {
    const rate = { input: 5.0, output: 30.0, source: "catalog" };
    const usage = { calls: 1, input_tokens: 400, output_tokens: 20, cost: 0.0015, model: "claude-opus-5" };
    const replay = new Replay({ metadata: { cost_rate: rate, judge_usage: usage } });
    expect(replay.costRate).toEqual(rate);
    expect(replay.judgeUsage).toEqual(usage);
    expect(new Replay({ metadata: { cost_rate: "5/M" } }).costRate).toBeNull();
    expect(new Replay({}).judgeUsage).toBeNull();
  });
});

describe("toJSON", () => {
  it("uses snake_case keys in the reference order and drops nulls", () => {
    const json = new Replay({ answer: "Done", toolCalls: [{ name: "x" }], outputTokens: 3, cost: 0 }).toJSON();
    expect(Object.keys(json)).toEqual(["answer", "tool_calls", "output_tokens", "cost", "metadata"]);
    expect(json).toEqual({ answer: "Done", tool_calls: [{ name: "x" }], output_tokens: 3, cost: 0, metadata: {} });
  });

  it("round-trips through Replay.from", () => {
    const replay = new Replay({
      answer: "A",
      toolCalls: [{ name: "t", error: "bad", detail: "500" }],
      durationMs: 1,
      inputTokens: 2,
      outputTokens: 3,
      error: "E",
      cost: 0.5,
      metadata: { cost_source: "estimated" },
    });
    expect(Replay.from(JSON.parse(JSON.stringify(replay))).toJSON()).toEqual(replay.toJSON());
  });
});
