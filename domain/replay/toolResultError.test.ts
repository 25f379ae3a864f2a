import { describe, expect, it } from "vitest";
import { TOOL_ERROR_DETAIL_BYTES, toolErrorDetail, toolResultError } from "./toolResultError.js";

describe("toolResultError", () => {
  it("reads an error at the top level of an object or of JSON text", () => {
    expect(toolResultError({ error: "order 4821 not found" })).toBe("order 4821 not found");
    expect(toolResultError('{"error": "rate limited"}')).toBe("rate limited");
    expect(toolResultError({ error: { code: 404 } })).toBe('{"code":404}');
    expect(toolResultError({ error: ["a", "b"] })).toBe('["a","b"]');
  });

  it("takes `error: true` with its message, else the whole object", () => {
    expect(toolResultError({ error: true, message: "no such customer" })).toBe("no such customer");
    expect(toolResultError({ error: true, message: "  " })).toBe('{"error":true,"message":"  "}');
    expect(toolResultError({ error: true })).toBe('{"error":true}');
  });

  it("reads an MCP result's isError with its text parts", () => {
    const result = { isError: true, content: [{ type: "text", text: "timeout" }, { type: "text", text: "after 30 s" }] };
    expect(toolResultError(result)).toBe("timeout\nafter 30 s");
    expect(toolResultError({ isError: true, content: [] })).toBe('{"isError":true,"content":[]}');
  });

  it("counts no error where none is reported at the top level", () => {
    for (const result of [
      { error: null }, { error: false }, { error: "" }, { error: {} }, { error: [] }, { isError: false },
      { data: { error: "nested is not the tool's error" } },
      "Error: this text only mentions an error", "def handle_error; end", '["error"]', "{not json", 42, null, undefined,
    ]) {
      expect(toolResultError(result), JSON.stringify(result)).toBeNull();
    }
  });

  it("reads a whole inspected Ruby hash's top-level error string, in each Ruby's spelling (reference-core §15)", () => {
    expect(toolResultError('{:error=>"order 4821 not found", :code=>404}')).toBe("order 4821 not found");
    expect(toolResultError('{error: "rate limited", retry_after: 30}')).toBe("rate limited");
    expect(toolResultError('{"status" => "failed", "error" => "arrow"}')).toBe("arrow");
    expect(toolResultError('  {:id=>1, :error=>"say \\"no\\"\\nthen \\u00e9\\u{1F600}"}  ')).toBe('say "no"\nthen é😀');
  });

  it("counts no error in an inspected hash whose error is not a top-level string, or in text that is not one whole hash", () => {
    for (const text of [
      "{:error=>nil}", '{error: ""}', "{error: false}", '{:data=>{:error=>"nested"}}', '{:note=>":error=>\\"quoted\\""}',
      'log: {:error=>"x"}', '{:a=>1} {:error=>"x"}', '{:error=>"unterminated}', '{:errors=>"plural"}',
    ]) {
      expect(toolResultError(text), text).toBeNull();
    }
  });

  it("reads what an inspected hash's text cannot mean without failing: bad escapes, many code points, a 10 MB string", () => {
    expect(toolResultError('{error: "a\\u{ }b"}')).toBe("au{ }b");
    expect(toolResultError('{error: "\\u{110000}"}')).toBe("\ufffd");
    expect(toolResultError(`{error: "\\u{${Array(200_000).fill("41").join(" ")}}"}`)).toBe("A".repeat(TOOL_ERROR_DETAIL_BYTES - 3) + "…");
    expect(toolResultError(`{:note=>"${"x".repeat(10_000_000)}", :error=>"down"}`)).toBe("down");
  });

  it("cuts a detail to 1,200 bytes with an ellipsis, whole characters only", () => {
    const detail = toolResultError({ error: "é".repeat(1000) })!;
    expect(Buffer.byteLength(detail)).toBeLessThanOrEqual(TOOL_ERROR_DETAIL_BYTES);
    expect(detail.endsWith("é…")).toBe(true);
    expect(toolErrorDetail("short")).toBe("short");
  });

  it("writes an Error as its message, and survives what JSON cannot write", () => {
    expect(toolErrorDetail(new TypeError("fetch failed"))).toBe("fetch failed");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toolErrorDetail(cyclic)).toBe("[object Object]");
    expect(toolErrorDetail(10n)).toBe("10");
  });
});
