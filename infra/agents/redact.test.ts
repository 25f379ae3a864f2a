import { describe, expect, it } from "vitest";
import { redactDeep, secretList } from "./redact.js";

describe("redactDeep", () => {
  const secrets = secretList(["TOKEN1234567890AB", "KEY456789"]);

  it("redacts keys as well as values, except the keys the value is read by", () => {
    const echoed = {
      answer: "ok",
      "https://host/hooks/TOKEN1234567890AB/replay?api_key=KEY456789": 1,
      metadata: { "seen KEY456789": "TOKEN1234567890AB", nested: [{ KEY456789: true }] },
    };
    expect(redactDeep(echoed, secrets, new Set(["answer", "metadata"]))).toEqual({
      answer: "ok",
      "https://host/hooks/[redacted]/replay?api_key=[redacted]": 1,
      metadata: { "seen [redacted]": "[redacted]", nested: [{ "[redacted]": true }] },
    });
    // A kept key stays whole even when a secret is part of it.
    expect(redactDeep({ name_KEY456789: 1 }, secrets, new Set(["name_KEY456789"]))).toEqual({ name_KEY456789: 1 });
  });

  it("keeps both of two keys that redact alike, the later one suffixed, and a key __proto__ as an own key", () => {
    const redacted = redactDeep(JSON.parse('{"TOKEN1234567890AB": 1, "KEY456789": 2, "[redacted]": 3, "__proto__": {"KEY456789": 4}}'), secrets);
    expect(redacted).toEqual({ "[redacted]": 1, "[redacted] (2)": 2, "[redacted] (3)": 3, ["__proto__"]: { "[redacted]": 4 } });
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.keys(redacted as object)).toContain("__proto__");
  });
});

describe("secretList", () => {
  it("looks for a known secret from 4 characters on, any other from 8, longest first", () => {
    expect(secretList(["short7!", "longer-than-8", null, "", "Cy7pW9q"], ["Cy7pW9q", "abc", "abcd", undefined])).toEqual(["longer-than-8", "Cy7pW9q", "abcd"]);
  });
});
