import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ScriptedAgent, ScriptError } from "./scriptedAgent.js";

const script = `
agent: SupportAgent
default:
  answer: "Let me check that for you."
  duration_ms: 900
replies:
  - key: refund_order
    models: [gpt-5-mini]
    answer: "I refunded order 1234."
    tool_calls: [{ name: refund_order, arguments: { order_id: "1234" } }]
    input_tokens: 210
    output_tokens: 35
    cost: 0.00042
  - key: refund_order
    answer: "I can't issue refunds, please email billing."
  - prompt: "/reset (my )?password/i"
    error: "Timeout talking to the identity service"
`;
const model = (label: string) => ({ label, provider: "openai", model: label });
const signal = new AbortController().signal;

describe("ScriptedAgent", () => {
  const agent = ScriptedAgent.fromYaml(script);

  it("matches by key, first for the listed model, then for any model", async () => {
    const refund = { key: "refund_order", prompt: "Refund order 1234" };
    const mini = await agent.replay(refund, model("gpt-5-mini"), { signal });
    expect(mini).toMatchObject({ answer: "I refunded order 1234.", input_tokens: 210, output_tokens: 35, cost: 0.00042 });
    expect(mini.tool_calls).toEqual([{ name: "refund_order", arguments: { order_id: "1234" } }]);
    const other = await agent.replay(refund, model("claude-sonnet"), { signal });
    expect(other.answer).toBe("I can't issue refunds, please email billing.");
    expect(other.tool_calls).toEqual([]);
  });

  it("matches a prompt by regex and records the scripted error", async () => {
    const replay = await agent.replay({ key: "x", prompt: "How do I Reset my password?" }, model("a"), { signal });
    expect(replay.error).toBe("Timeout talking to the identity service");
  });

  it("falls back to the default reply", async () => {
    const replay = await agent.replay({ key: "hours", prompt: "When are you open?" }, model("a"), { signal });
    expect(replay).toMatchObject({ answer: "Let me check that for you.", duration_ms: 900 });
  });

  it("gives a reply that says no duration none (null), not 0, which pulled latency averages down", async () => {
    const bare = ScriptedAgent.fromYaml("replies: [{ key: a, error: boom }, { key: b, answer: hi, latency_ms: 1 }]");
    expect((await bare.replay({ key: "a", prompt: "?" }, model("m"), { signal })).duration_ms).toBeNull();
    expect((await bare.replay({ key: "b", prompt: "?" }, model("m"), { signal })).duration_ms).toBe(1);
  });

  it("fails a scenario the script does not cover when there is no default", async () => {
    const bare = ScriptedAgent.fromYaml("replies: [{ key: a, answer: hi }]");
    await expect(bare.replay({ key: "b", prompt: "?" }, model("m"), { signal })).rejects.toThrow('no reply for scenario "b" on m');
  });

  it("waits latency_ms and can be aborted", async () => {
    const slow = ScriptedAgent.fromYaml("default: { answer: ok, latency_ms: 5000 }");
    const controller = new AbortController();
    const pending = slow.replay({ key: "k", prompt: "p" }, model("m"), { signal: controller.signal });
    controller.abort(new Error("replay timed out"));
    await expect(pending).rejects.toThrow("replay timed out");
  });

  it("a reply with both key and prompt needs both to match, as in the judge script", async () => {
    const keyed = ScriptedAgent.fromYaml(`
replies:
  - { key: refund_order, prompt: "/cancel/i", answer: "key and prompt" }
  - { prompt: "/refund/i", answer: "prompt only" }
`);
    expect((await keyed.replay({ key: "refund_order", prompt: "Refund order 1234" }, model("m"), { signal })).answer).toBe("prompt only");
    expect((await keyed.replay({ key: "refund_order", prompt: "Cancel order 1234" }, model("m"), { signal })).answer).toBe("key and prompt");
    expect((await keyed.replay({ key: "other", prompt: "Cancel and refund" }, model("m"), { signal })).answer).toBe("prompt only");
  });

  it("refuses figures past the ReplayRecorded event's bounds when it loads, naming the field", () => {
    expect(() => ScriptedAgent.fromYaml("replies: [{ key: a, answer: hi, input_tokens: 2000000000000 }]")).toThrow(
      "agent script: replies.0.input_tokens: must be at most 1000000000000 tokens",
    );
    expect(() => ScriptedAgent.fromYaml("default: { answer: hi, output_tokens: 1000000000001 }")).toThrow("agent script: default.output_tokens: must be at most 1000000000000 tokens");
    expect(() => ScriptedAgent.fromYaml("default: { answer: hi, cost: 1000000001 }")).toThrow("agent script: default.cost: must be at most 1000000000 (USD)");
    expect(() => ScriptedAgent.fromYaml("default: { answer: hi, duration_ms: 1000000000001 }")).toThrow("agent script: default.duration_ms: must be at most 1000000000000 ms");
  });

  it("refuses models under default, naming it, rather than ignoring it", () => {
    expect(() => ScriptedAgent.fromYaml("default: { answer: hi, models: [gpt-5] }")).toThrow(ScriptError);
    expect(() => ScriptedAgent.fromYaml("default: { answer: hi, models: [gpt-5] }")).toThrow(/default.*models/);
  });

  it("rejects a malformed script naming the field", () => {
    expect(() => ScriptedAgent.fromYaml("replies: [{ key: a, answr: hi }]")).toThrow(ScriptError);
    expect(() => ScriptedAgent.fromYaml("replies: [{ key: a, answr: hi }]")).toThrow(/replies\.0/);
    expect(() => ScriptedAgent.fromYaml("replies: [{ answer: hi }]")).toThrow("replies.0: needs key or prompt");
    expect(() => ScriptedAgent.fromYaml("replies: [{ prompt: '/(/', answer: hi }]")).toThrow(/replies\.0\.prompt: invalid regex/);
    // Would backtrack for ever on a long prompt, synchronously: refused when the script loads.
    expect(() => ScriptedAgent.fromYaml("replies: [{ prompt: '/^(\\w+\\s?)*$/', answer: hi }]")).toThrow(/replies\.0\.prompt: unsafe regex: a group repeated without bound holds a repeat without bound/);
    // Shapes the scoring rules are stricter about stay usable in a script, reading the whole prompt.
    for (const pattern of ["/\\w+@\\w+\\.\\w+/", "/(hi|hello)+/i", "/(\\d{3}-)+/", "/refund.*order.*today/"]) {
      expect(() => ScriptedAgent.fromYaml(`replies: [{ prompt: '${pattern}', answer: hi }]`), pattern).not.toThrow();
    }
    expect(() => ScriptedAgent.fromYaml("replies: [")).toThrow(/invalid YAML/);
  });

  it("refuses a recursive alias (a tool call's arguments that would contain themselves), with its line", () => {
    const text = "replies:\n  - key: a\n    answer: hi\n    tool_calls:\n      - name: t\n        arguments: &args { again: *args }\n";
    expect(() => ScriptedAgent.fromYaml(text)).toThrow(ScriptError);
    expect(() => ScriptedAgent.fromYaml(text)).toThrow("agent script: invalid YAML: line 6: alias *args is inside the node its anchor &args names");
  });
});

describe("ScriptedAgent.load", () => {
  it("refuses a file over the script limit before reading it, naming the path and the limit", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agent-script-"));
    const path = join(dir, "huge.yaml");
    const handle = await open(path, "w");
    await handle.truncate(600 * 1024 * 1024); // sparse: nothing is written
    await handle.close();
    const error = await ScriptedAgent.load(path).catch((e: Error) => e);
    await rm(dir, { recursive: true });
    expect(error).toBeInstanceOf(ScriptError);
    expect((error as Error).message).toBe(`agent script: ${path} is 629,145,600 bytes; at most 2,097,152 are allowed`);
  });
});
