// A local run (`verdict run`) grades and reports a replay as a platform run of it does: the text
// it judges is the text the platform records, and what the judge wrote is kept to the bytes the
// platform keeps.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JUDGE_TEXT_BYTES, isStorableText, storableTextOf, truncateBytes, type AgentRuntime, type JudgeRequest } from "@verdict/domain";
import type { JudgeBackend } from "@verdict/infra/judges";
import { localRun } from "./localRun.js";

const CATALOG = [
  "catalog: c",
  "products:",
  "  - key: p",
  "    sets:",
  "      - key: s",
  "        scenarios:",
  "          - key: order",
  "            prompt: Where is my order 4821?",
  "            expect:",
  "              tools: [lookup_order]",
  "",
].join("\n");

let dir: string;
let catalogPath: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-parity-"));
  catalogPath = join(dir, "catalog.yaml");
  await writeFile(catalogPath, CATALOG);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A judge that refuses a body with a lone surrogate, as Anthropic's API does, and answers each kind from `answers`. */
function strictJudge(answers: Partial<Record<JudgeRequest["kind"], string>>, asked: JudgeRequest[]): JudgeBackend {
  return {
    name: "strict",
    complete: async (request) => {
      asked.push(request);
      if (!isStorableText(request.prompt)) throw new Error("400 invalid_request_error: no low surrogate in string");
      return answers[request.kind] ?? '{"score": 0.3}';
    },
  };
}

/** Every string in a JSON-like value. */
const stringsOf = (value: unknown): string[] =>
  typeof value === "string" ? [value] : value !== null && typeof value === "object" ? Object.values(value).flatMap(stringsOf) : [];

const answering = (answer: string): AgentRuntime => ({ name: "fixed", replay: async () => ({ answer, input_tokens: 10, output_tokens: 10 }) as never });

describe("a local run and the platform", () => {
  it("judge the text the platform records: a lone surrogate or NUL in an answer reaches the judge as U+FFFD", async () => {
    const answer = "Order 4821 \ud800 shipped\u0000 yesterday, the tracking link is in your inbox.";
    const asked: JudgeRequest[] = [];
    const outcome = await localRun({ catalogPath, product: "p", set: "s", models: ["gpt-5-mini"], runtime: answering(answer), judge: strictJudge({}, asked) });
    const recorded = storableTextOf(answer);
    expect(recorded).toBe("Order 4821 \ufffd shipped\ufffd yesterday, the tracking link is in your inbox.");
    const task = asked.find((request) => request.kind === "score");
    expect(task?.prompt).toContain(recorded);
    expect(asked.every((request) => isStorableText(request.prompt))).toBe(true);
    // The judge answered, so the pair was graded by it rather than on rules alone.
    const [result] = outcome.results;
    expect(result.scores.task_completion).toBe(0.3);
    expect(result.replay.answer).toBe(recorded);
    expect((outcome.report.toJSON().results[0] as { answer?: string }).answer).toBe(recorded);
  });

  it("keep what the judge wrote to JUDGE_TEXT_BYTES a string, as the platform records it: a 100 KB rationale or instruction_change is cut", async () => {
    const long = "réponse ".repeat(12_500); // 112,500 UTF-8 bytes, two of them to a character now and then
    const cut = truncateBytes(long, JUDGE_TEXT_BYTES);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(JUDGE_TEXT_BYTES);
    const answers = {
      score: '{"score": 0.3}',
      recommend: JSON.stringify({ recommendation: long, instruction_change: long, suggested_tool: { name: "lookup_order", description: long } }),
      verdict: JSON.stringify({ winner: "gpt-5-mini", rationale: long }),
    };
    const asked: JudgeRequest[] = [];
    const answer = "Your order is on its way and should arrive within two days, thank you.";
    const outcome = await localRun({ catalogPath, product: "p", set: "s", models: ["gpt-5-mini", "claude-sonnet-4-5"], runtime: answering(answer), judge: strictJudge(answers, asked) });
    expect(asked.map((request) => request.kind)).toContain("recommend");
    for (const result of outcome.results) {
      expect(result.fault).toBe("expected_tool_not_called");
      expect(result.recommendation).toBe(cut);
      expect(result.judgeRefinement).toEqual({ recommendation: cut, instruction_change: cut, suggested_tool: { name: "lookup_order", description: cut } });
      for (const exchange of result.judgeExchanges) expect(Buffer.byteLength(exchange.raw ?? "")).toBeLessThanOrEqual(JUDGE_TEXT_BYTES);
    }
    expect(outcome.report.verdict?.rationale).toBe(cut);
    // No text of the report (its recommendations, the diagnoses, the verdict) holds more.
    const longest = Math.max(...stringsOf(outcome.report.toJSON()).map((text) => Buffer.byteLength(text)));
    expect(longest).toBe(Buffer.byteLength(cut));
  });
});
