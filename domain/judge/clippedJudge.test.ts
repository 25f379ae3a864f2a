// ClippedJudge: a Judge whose answers are cut as the worker records them (clippedJudgeText).
import { describe, expect, it } from "vitest";
import { truncateBytes } from "../support/truncate.js";
import { ClippedJudge } from "./clippedJudge.js";
import { JUDGE_TEXT_BYTES } from "./judgeText.js";

const judgeAnswering = (text: string) => new ClippedJudge({ label: "judge-model", complete: async () => text });
const summaries = { a: { pass_rate: 1, scenarios: 1, errored: 0 }, b: { pass_rate: 0.5, scenarios: 1, errored: 0 } };

describe("ClippedJudge", () => {
  it("cuts what it returns and its exchange's raw answer, parsed value and reason", async () => {
    const long = "x".repeat(3 * JUDGE_TEXT_BYTES);
    const cut = truncateBytes(long, JUDGE_TEXT_BYTES);
    const recommended = await judgeAnswering(JSON.stringify({ recommendation: long })).recommend({ scenario: { prompt: "Hi" }, replay: { answer: "Hello" }, diagnosis: { fault: "low_quality" } });
    expect(recommended.value).toEqual({ recommendation: cut });
    expect(recommended.exchange?.parsed).toEqual({ recommendation: cut });
    expect(recommended.exchange?.raw).toBe(truncateBytes(JSON.stringify({ recommendation: long }), JUDGE_TEXT_BYTES));
    const unusable = await judgeAnswering(`no JSON here ${long}`).scoreTask({ scenario: { prompt: "Hi" }, answer: "Hello" });
    expect(unusable.value).toBeNull();
    expect(Buffer.byteLength(unusable.exchange?.raw ?? "")).toBe(JUDGE_TEXT_BYTES);
  });

  it("leaves a blank rationale blank, for the report to put the ranking's own in its place as it does on the platform", async () => {
    const blank = " ".repeat(3 * JUDGE_TEXT_BYTES);
    const { value } = await judgeAnswering(JSON.stringify({ winner: "a", rationale: blank })).verdict({ summaries });
    expect(value?.rationale).toBe(blank);
    const long = await judgeAnswering(JSON.stringify({ winner: "a", rationale: `Because ${blank}.` })).verdict({ summaries });
    expect(Buffer.byteLength(long.value?.rationale ?? "")).toBe(JUDGE_TEXT_BYTES);
  });
});
