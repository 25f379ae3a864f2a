import { describe, expect, it } from "vitest";
import { parseWholeNumber, SettingError, wholeNumberSetting } from "./index.js";

const ms = { min: 1, unit: "milliseconds" };

describe("wholeNumberSetting", () => {
  it("reads decimal digits, spaces around them allowed; unset or blank is the fallback", () => {
    expect(wholeNumberSetting({ X: "2500" }, "X", ms, 10)).toBe(2500);
    expect(wholeNumberSetting({ X: " 12 " }, "X", ms, 10)).toBe(12);
    expect(wholeNumberSetting({}, "X", ms, 10)).toBe(10);
    expect(wholeNumberSetting({ X: "  " }, "X", ms, undefined)).toBeUndefined();
  });

  it("refuses what Number() took: hex, exponents, fractions, signs; naming the variable and the rule", () => {
    for (const bad of ["0x10", "1e3", "1.5", "-1", "+5", "12ms", "1_000", "Infinity", "99999999999999999999"]) {
      expect(() => wholeNumberSetting({ X: bad }, "X", ms, 10)).toThrow(`X must be a whole number of milliseconds >= 1 (got ${JSON.stringify(bad)})`);
    }
    const error = (() => {
      try {
        return wholeNumberSetting({ X: "0" }, "X", ms, 10);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SettingError);
    expect(error).toMatchObject({ setting: "X", code: "validation" });
  });

  it("keeps a range, and 0 as off (null) where the rule gives it a meaning", () => {
    const nice = { min: 0, max: 19 };
    expect(wholeNumberSetting({ N: "0" }, "N", nice, 10)).toBe(0);
    expect(wholeNumberSetting({ N: "19" }, "N", nice, 10)).toBe(19);
    expect(() => wholeNumberSetting({ N: "20" }, "N", nice, 10)).toThrow('N must be a whole number 0-19 (got "20")');
    const off = { ...ms, zeroMeans: "no limit" };
    expect(wholeNumberSetting({ T: "0" }, "T", off, 5)).toBeNull();
    expect(wholeNumberSetting({ T: "00" }, "T", off, 5)).toBeNull();
    expect(wholeNumberSetting({ T: "7" }, "T", off, 5)).toBe(7);
    expect(() => wholeNumberSetting({ T: "0x0" }, "T", off, 5)).toThrow('T must be a whole number of milliseconds >= 1, or 0 for no limit (got "0x0")');
    expect(() => wholeNumberSetting({ T: "0" }, "T", { min: 1000, unit: "milliseconds" }, 5)).toThrow('T must be a whole number of milliseconds >= 1000 (got "0")');
  });
});

describe("parseWholeNumber", () => {
  it("reads a flag's value, where blank is no value, not the default", () => {
    const port = { min: 0, max: 65535, noun: "port number" };
    expect(parseWholeNumber("--port", "8080", port)).toBe(8080);
    expect(parseWholeNumber("--port", "0", port)).toBe(0);
    for (const bad of ["", " ", "0x1f90", "8080.0", "65536"]) {
      expect(() => parseWholeNumber("--port", bad, port)).toThrow(`--port must be a port number 0-65535 (got ${JSON.stringify(bad)})`);
    }
  });

  it("refuses milliseconds past 2^31-1, which Node's timers would run at once", () => {
    const ms = { min: 1, unit: "milliseconds" };
    expect(wholeNumberSetting({ T: "2147483647" }, "T", ms, 5)).toBe(2147483647);
    expect(() => wholeNumberSetting({ T: "3000000000" }, "T", ms, 5)).toThrow('T must be at most 2147483647 milliseconds (about 24.8 days), the longest a timer waits (got "3000000000")');
    expect(() => wholeNumberSetting({ T: "3000000000" }, "T", { ...ms, zeroMeans: "no limit" }, 5)).toThrow(/at most 2147483647 milliseconds/);
    // The first value Node runs at once (it sets the timer to 1 ms).
    expect(() => wholeNumberSetting({ T: "2147483648" }, "T", ms, 5)).toThrow(/at most 2147483647 milliseconds/);
    // Timers only: a count or a size of bytes (VERDICT_API_MAX_ANSWER_BYTES) may go past it.
    expect(wholeNumberSetting({ B: "3000000000" }, "B", { min: 1 }, 5)).toBe(3000000000);
  });
});
