// Replay.from and the converters read whatever a host returned: random and mutated inputs must
// give a Replay or a ReplayError, never a TypeError or anything else.
import { describe, expect, it } from "vitest";
import { seededRandom } from "../stats/prng.js";
import { Replay, ReplayError, replayFromAiSdk, replayFromMessages } from "./index.js";

const KEYS = ["answer", "tool_calls", "toolCalls", "duration_ms", "durationMs", "input_tokens", "inputTokens",
  "output_tokens", "outputTokens", "error", "cost", "metadata", "answr", "tools", "", "__proto__", "constructor"];

function randomValue(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * 12);
  switch (pick) {
    case 0: return null;
    case 1: return undefined;
    case 2: return random() < 0.5;
    case 3: return Math.floor(random() * 10_000) - 100;
    case 4: return [Number.NaN, Infinity, -0, 1e308, 0.5][Math.floor(random() * 5)];
    case 5: return "Order 4821 shipped".slice(0, Math.floor(random() * 18));
    case 6: return new Error("boom");
    case 7: return depth > 2 ? [] : Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
    case 8: return depth > 2 ? {} : randomObject(random, depth + 1);
    case 9: return { name: "lookup_order", error: randomValue(random, depth + 1), durationMs: 3 };
    case 10: return Symbol.for("x");
    default: return () => 1;
  }
}

function randomObject(random: () => number, depth = 0): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const count = Math.floor(random() * 5);
  for (let i = 0; i < count; i += 1) object[KEYS[Math.floor(random() * KEYS.length)]] = randomValue(random, depth);
  return object;
}

describe("Replay.from fuzz", () => {
  it("returns a Replay or throws ReplayError for 10,000 random inputs", () => {
    const random = seededRandom(3);
    let built = 0;
    for (let i = 0; i < 10_000; i += 1) {
      const input = random() < 0.8 ? randomObject(random) : randomValue(random);
      try {
        const replay = Replay.from(input);
        // whatever was accepted must serialize and read back
        expect(Replay.from(JSON.parse(JSON.stringify(replay))).toJSON()).toEqual(JSON.parse(JSON.stringify(replay.toJSON())));
        expect(replay.toolNames.length).toBe(replay.toolCalls.length);
        expect(replay.failedToolCalls.length).toBeLessThanOrEqual(replay.toolCalls.length);
        expect(Number.isFinite(replay.totalTokens)).toBe(true);
        built += 1;
      } catch (error) {
        if (!(error instanceof ReplayError)) throw new Error(`case ${i}: ${String(error)} for ${String(input)}`);
      }
    }
    expect(built).toBeGreaterThan(1_000);
  });
});

const ROLES = ["system", "user", "assistant", "tool", "developer", "function", "bot", ""];
const PART_TYPES = ["text", "refusal", "tool-call", "tool-result", "tool-error", "tool_use", "tool_result", "server_tool_use", "web_search_tool_result", "content", "image", "json", "error-text", "execution-denied"];

const pick = <T>(random: () => number, values: readonly T[]): T => values[Math.floor(random() * values.length)];
const maybe = (random: () => number, value: () => unknown): unknown => (random() < 0.8 ? value() : randomValue(random, 2));

function randomPart(random: () => number): unknown {
  if (random() < 0.1) return randomValue(random, 2);
  return {
    type: pick(random, PART_TYPES),
    text: maybe(random, () => "Order 4821 shipped"),
    toolCallId: maybe(random, () => pick(random, ["c1", "c2", "c3"])),
    toolName: maybe(random, () => pick(random, ["lookup_order", "refund"])),
    id: maybe(random, () => pick(random, ["c1", "c2"])),
    name: maybe(random, () => "refund"),
    tool_use_id: maybe(random, () => pick(random, ["c1", "c2"])),
    content: random() < 0.5 ? "done" : randomValue(random, 2),
    is_error: random() < 0.5,
    input: randomValue(random, 2),
    output: random() < 0.5 ? { type: pick(random, PART_TYPES), value: randomValue(random, 2), reason: randomValue(random, 2) } : randomValue(random, 2),
    error: randomValue(random, 2),
    invalid: random() < 0.2,
    providerExecuted: random() < 0.2,
    args: randomValue(random, 2),
    result: randomValue(random, 2),
    isError: random() < 0.3,
  };
}

function randomParts(random: () => number): unknown {
  return random() < 0.2 ? randomValue(random, 2) : Array.from({ length: Math.floor(random() * 4) }, () => randomPart(random));
}

function randomMessage(random: () => number): unknown {
  if (random() < 0.05) return randomValue(random, 2);
  return {
    role: maybe(random, () => pick(random, ROLES)),
    content: random() < 0.4 ? maybe(random, () => '{"error": "quota"}') : randomParts(random),
    tool_calls: random() < 0.5 ? undefined : maybe(random, () => [{ id: pick(random, ["c1", "c2"]), function: { name: maybe(random, () => "lookup_order"), arguments: maybe(random, () => '{"n":1}') } }]),
    tool_call_id: maybe(random, () => pick(random, ["c1", "c2"])),
    function_call: random() < 0.8 ? undefined : { name: maybe(random, () => "lookup_order"), arguments: "{}" },
    name: maybe(random, () => "lookup_order"),
    ...(random() < 0.05 ? { content: undefined, parts: [] } : {}),
  };
}

function expectReplayOrReplayError(convert: () => Replay, label: string): boolean {
  try {
    const replay = convert();
    expect(Replay.from(JSON.parse(JSON.stringify(replay.toJSON()))).toolNames).toEqual(replay.toolNames);
    return true;
  } catch (error) {
    if (!(error instanceof ReplayError)) throw new Error(`${label}: ${String(error)}`);
    return false;
  }
}

describe("converter fuzz", () => {
  it("replayFromMessages returns a Replay or throws ReplayError for 5,000 random conversations", () => {
    const random = seededRandom(5);
    let built = 0;
    for (let i = 0; i < 5_000; i += 1) {
      const messages = random() < 0.05 ? randomValue(random) : Array.from({ length: Math.floor(random() * 6) }, () => randomMessage(random));
      if (expectReplayOrReplayError(() => replayFromMessages(messages), `case ${i}`)) built += 1;
    }
    expect(built).toBeGreaterThan(500);
  });

  it("replayFromAiSdk returns a Replay or throws ReplayError for 5,000 random results", () => {
    const random = seededRandom(7);
    let built = 0;
    for (let i = 0; i < 5_000; i += 1) {
      const steps = Array.from({ length: Math.floor(random() * 4) }, () => (random() < 0.05 ? randomValue(random, 2) : { content: randomParts(random), usage: { inputTokens: randomValue(random, 2), outputTokens: 5 } }));
      const result = random() < 0.05 ? randomValue(random) : { steps: random() < 0.05 ? randomValue(random) : steps, totalUsage: random() < 0.5 ? undefined : randomValue(random, 2) };
      if (expectReplayOrReplayError(() => replayFromAiSdk(result), `case ${i}`)) built += 1;
    }
    expect(built).toBeGreaterThan(500);
  });
});
