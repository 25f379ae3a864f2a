import { describe, expect, it } from "vitest";
import { escapeHtml } from "./escape.js";
import { faultName, faultNameHtml, figureHtml, latency, money, passes, percent, ratePercent, tokens } from "./figures.js";

describe("the page's figures", () => {
  it("escapes percent, money and latency figures as escapeHtml does, without scanning them", () => {
    const values = [null, undefined, NaN, Infinity, "x<y", "0.5", 0, -0, 0.875, 1e-7, 0.000697, 0.0243, 12.5, -3.25, 2e21, 999_999, 12_345];
    const figures = values.flatMap((v) => [percent(v as number), money(v as number), money(v as number, true), latency(v as number)]);
    for (const text of figures) expect(figureHtml(text)).toBe(escapeHtml(text));
    expect(faultNameHtml("tool_<b>_\"x\"")).toBe(escapeHtml(faultName("tool_<b>_\"x\"")));
  });

  it("writes latency in ms below a second, else seconds without trailing zeros", () => {
    expect(latency(840)).toBe("840ms");
    expect(latency(1000)).toBe("1s");
    expect(latency(2500)).toBe("2.5s");
    expect(latency(2354)).toBe("2.35s");
    expect(latency(12_345)).toBe("12.3s");
    expect(latency(null)).toBe("—");
  });

  it("writes token counts as 1.2K / 3.4M, else integers", () => {
    expect(tokens(950)).toBe("950");
    expect(tokens(1234)).toBe("1.2K");
    expect(tokens(2000)).toBe("2K");
    expect(tokens(3_400_000)).toBe("3.4M");
    expect(tokens(undefined)).toBe("—");
  });

  it("uses the shared Format rules for percent, passes and money", () => {
    expect(percent(0.875)).toBe("88%");
    expect(passes(14, 16)).toBe("14/16 · 88%");
    expect(passes(0, 0)).toBe("—");
    expect(money(0.02433, true)).toBe("~$0.0243");
    expect(money(0.000697)).toBe("$0.000697");
    expect(ratePercent(66.66)).toBe("66.7%");
    expect(ratePercent(100)).toBe("100%");
  });

  it("names a fault with spaces", () => {
    expect(faultName("expected_tool_not_called")).toBe("expected tool not called");
  });
});
