// Replay.from reads whatever a host returned: random and mutated inputs must give a Replay or a
// ReplayError, never a TypeError or anything else.
import { describe, expect, it } from "vitest";
import { seededRandom } from "../stats/prng.js";
import { Replay, ReplayError } from "./index.js";

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
