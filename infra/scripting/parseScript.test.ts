import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseScript } from "./parseScript.js";

const schema = z.object({ answer: z.unknown().optional(), metadata: z.record(z.string(), z.unknown()).optional() }).strict();
const parse = (text: string) => parseScript(text, schema, "agent script", (message) => new Error(message));

describe("parseScript reads YAML as catalogs are read", () => {
  it("refuses an unknown tag, with its line (`!!js/function` was read as text, with a warning on stderr)", () => {
    expect(() => parse("metadata:\n  f: !!js/function 'function () {}'\n")).toThrow(/^agent script: invalid YAML: line 2: Unresolved tag: tag:yaml\.org,2002:js\/function/);
  });

  it("refuses nesting past the bound, with its line (10,000 levels overflowed the stack)", () => {
    expect(() => parse(`answer: ${"[".repeat(10_000)}${"]".repeat(10_000)}\n`)).toThrow(/^agent script: invalid YAML: (line \d+: )?mappings and lists nest more than 64 levels deep/);
    expect(() => parse(`metadata:\n  deep: ${"[".repeat(70)}${"]".repeat(70)}\n`)).toThrow(/^agent script: invalid YAML: line 2: mappings and lists nest more than 64 levels deep/);
  });

  it("refuses a repeated key with its line, and reads 80,000 keys in one mapping quickly (40,000 took 14 s before)", { timeout: 120_000 }, () => {
    expect(() => parse("answer: a\nmetadata: {x: 1}\nanswer: b\n")).toThrow("agent script: invalid YAML: line 3: repeated key in one mapping");
    const keys = 80_000;
    const started = Date.now();
    const script = parse("metadata:\n" + Array.from({ length: keys }, (_, i) => `  k${i}: ${i}`).join("\n") + "\n");
    expect(Object.keys(script.metadata ?? {})).toHaveLength(keys);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("reads scalars as YAML 1.2 does, as scripts always were: yes and 010 stay text and ten", () => {
    expect(parse("answer: yes\nmetadata: {n: 010, off: off}\n")).toEqual({ answer: "yes", metadata: { n: 10, off: "off" } });
    expect(parse("")).toEqual({});
  });
});
