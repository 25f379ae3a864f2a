import { afterEach, describe, expect, it, vi } from "vitest";
import type { EventData } from "@verdict/domain";
import type { JudgeBackend } from "@verdict/infra/judges";
import { judgeForRun } from "./judging.js";

const llmRun = { judge: { kind: "llm", model: "hung-judge" }, judge_label: "hung-judge" } as EventData<"RunStarted">;
const hung: JudgeBackend = { name: "hung-judge", complete: () => new Promise(() => undefined) };
const scenario = { key: "order_status", prompt: "Where is my order?" };

describe("judgeForRun's timeout", () => {
  afterEach(() => { vi.useRealTimers(); });

  it("skips a call unanswered after 120 s when the worker gives no judgeTimeoutMs (the embedded npm start), so a hung backend cannot hold its pairs for ever", async () => {
    vi.useFakeTimers();
    const { judge } = judgeForRun(llmRun, { backend: hung });
    let outcome: Awaited<ReturnType<NonNullable<typeof judge>["scoreTask"]>> | undefined;
    void judge!.scoreTask({ scenario, answer: "It ships today." }).then((value) => { outcome = value; });
    await vi.advanceTimersByTimeAsync(119_999);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome?.exchange).toMatchObject({ skipped: true, unusable_reason: "the judge call failed: JudgeTimeout: no answer within 120000 ms" });
  });
});
