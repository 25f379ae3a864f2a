import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Judge, Scenario } from "@verdict/domain";
import { JudgeScriptError, ScriptedJudge } from "./scriptedJudge.js";
import { loadJudge, parseJudgeSpec } from "./judgeSpec.js";

const script = `
judge: scripted-judge
defaults:
  score: '{"score": 0.9}'
  verdict: { winner: gpt-5-mini, rationale: "Passes more scenarios." }
answers:
  - kind: score
    key: refund_order
    models: [claude-sonnet-5]
    answer: '{"score": 0.1}'
    usage: { input_tokens: 400, output_tokens: 12, cost: 0.0006 }
  - kind: score
    prompt: "/password/i"
    answer: '{"score": 0.4}'
  - kind: recommend
    error: "rate limited"
`;

const request = (kind: "score" | "recommend" | "verdict", prompt = "anything") => ({ kind, prompt, instructions: "grade" });

describe("ScriptedJudge", () => {
  const judge = ScriptedJudge.fromYaml(script, "scripted:test");

  it("matches by kind, scenario key and model label, with the answer's usage", async () => {
    const reply = await judge.complete(request("score"), { scenarioKey: "refund_order", modelLabel: "claude-sonnet-5" });
    expect(reply).toEqual({ text: '{"score": 0.1}', usage: { model: "scripted-judge", input_tokens: 400, output_tokens: 12, cost: 0.0006 } });
    const other = await judge.complete(request("score"), { scenarioKey: "refund_order", modelLabel: "gpt-5-mini" });
    expect(other).toEqual({ text: '{"score": 0.9}', usage: { model: "scripted-judge" } });
  });

  it("matches a pattern over the judge's prompt, and writes mapping answers as JSON", async () => {
    expect(await judge.complete(request("score", "Reset my PASSWORD please"))).toMatchObject({ text: '{"score": 0.4}' });
    const verdict = await judge.complete(request("verdict"));
    expect(JSON.parse((verdict as { text: string }).text)).toEqual({ winner: "gpt-5-mini", rationale: "Passes more scenarios." });
  });

  it("fails a call scripted to fail, and one it has no answer for, naming it", async () => {
    await expect(judge.complete(request("recommend"))).rejects.toThrow("rate limited");
    const bare = ScriptedJudge.fromYaml("answers: []");
    await expect(bare.complete(request("verdict"), { scenarioKey: "k" })).rejects.toThrow('scripted judge has no answer for a verdict call on scenario "k"');
  });

  it("drives the core's Judge: grades parsed, failures skipped with the reason", async () => {
    const core = new Judge({ label: "scripted-judge", complete: (req) => judge.complete(req, { scenarioKey: "refund_order", modelLabel: "claude-sonnet-5" }) });
    const scenario = new Scenario({ key: "refund_order", prompt: "Refund order 1234" });
    const graded = await core.scoreTask({ scenario, answer: "Refunded." });
    expect(graded.value).toBe(0.1);
    expect(graded.exchange).toMatchObject({ kind: "score", raw: '{"score": 0.1}', usage: { input_tokens: 400, output_tokens: 12, cost: 0.0006, model: "scripted-judge" } });
    const recommended = await core.recommend({ scenario, replay: { answer: "x", toolCalls: [] } as never, diagnosis: { fault: "low_quality", summary: "s", recommendation: "r", evidence: {} } as never });
    expect(recommended.value).toBeNull();
    expect(recommended.exchange?.unusable_reason).toBe("the judge call failed: Error: rate limited");
  });

  it("refuses a malformed script naming the field", () => {
    expect(() => ScriptedJudge.fromYaml("answers: [{ kind: grade, answer: x }]")).toThrow(JudgeScriptError);
    expect(() => ScriptedJudge.fromYaml("answers: [{ kind: score }]")).toThrow("answers.0: needs exactly one of answer or error");
    expect(() => ScriptedJudge.fromYaml("answers: [{ kind: score, answer: x, prompt: '/(/' }]")).toThrow("answers.0.prompt: invalid regex");
  });

  it("refuses usage past the ResultScored event's bounds when it loads, naming the field", () => {
    // Loaded, such a script made every score append fail: the run failed, pair after pair.
    expect(() => ScriptedJudge.fromYaml("answers: [{ kind: score, answer: x, usage: { input_tokens: 2000000000000 } }]")).toThrow(
      "judge script: answers.0.usage.input_tokens: must be at most 1000000000000 tokens",
    );
    expect(() => ScriptedJudge.fromYaml("usage: { output_tokens: 1000000000001 }")).toThrow("judge script: usage.output_tokens: must be at most 1000000000000 tokens");
    expect(() => ScriptedJudge.fromYaml("usage: { cost: 1000000001 }")).toThrow("judge script: usage.cost: must be at most 1000000000 (USD)");
    expect(() => ScriptedJudge.fromYaml("usage: { input_tokens: 1000000000000, cost: 1000000000 }")).not.toThrow();
  });

  it("refuses a recursive alias (an answer that would contain itself), with its line", () => {
    const text = "defaults:\n  verdict: &v\n    winner: m\n    again: *v\n";
    expect(() => ScriptedJudge.fromYaml(text)).toThrow(JudgeScriptError);
    expect(() => ScriptedJudge.fromYaml(text)).toThrow("judge script: invalid YAML: line 4: alias *v is inside the node its anchor &v names");
  });

  it("parseJudgeSpec reads none, scripted:<path> and providers[:<model>] once for --judge and VERDICT_JUDGE; anything else is null", () => {
    expect(parseJudgeSpec(" none ")).toEqual({ kind: "none" });
    expect(parseJudgeSpec("scripted:j.yaml")).toEqual({ kind: "scripted", path: "j.yaml" });
    expect(parseJudgeSpec("providers")).toEqual({ kind: "providers", model: null });
    expect(parseJudgeSpec("providers:")).toEqual({ kind: "providers", model: null });
    expect(parseJudgeSpec("providers: gpt-5 ")).toEqual({ kind: "providers", model: "gpt-5" });
    for (const other of ["openai:gpt-5", "", "scripted:", "providersx"]) expect(parseJudgeSpec(other)).toBeNull();
  });

  it("loadJudge: none is rules only, a script is loaded, and its load errors name the setting given", async () => {
    expect(await loadJudge("--judge", { kind: "none" })).toBeNull();
    const dir = await mkdtemp(join(tmpdir(), "judge-"));
    const path = join(dir, "judge.yaml");
    await writeFile(path, script);
    const loaded = await loadJudge("--judge", { kind: "scripted", path });
    expect(loaded?.name).toBe("scripted-judge"); // the label its script declares
    await expect(loadJudge("--judge", { kind: "scripted", path: join(dir, "nope.yaml") })).rejects.toThrow(`--judge: no such file ${join(dir, "nope.yaml")}`);
    await expect(loadJudge("VERDICT_JUDGE", { kind: "scripted", path: dir })).rejects.toThrow(`VERDICT_JUDGE: ${dir} is a directory, not a script file`);
  });
});

describe("ScriptedJudge.load", () => {
  it("is named by its script's label, else by its file name: never by the deployment's path", async () => {
    const dir = await mkdtemp(join(tmpdir(), "judge-name-"));
    try {
      await writeFile(join(dir, "named.yaml"), script);
      await writeFile(join(dir, "unnamed.yaml"), "answers: []\n");
      expect((await ScriptedJudge.load(join(dir, "named.yaml"))).name).toBe("scripted-judge");
      const unnamed = await ScriptedJudge.load(join(dir, "unnamed.yaml"));
      expect(unnamed.name).toBe("scripted:unnamed.yaml");
      expect(unnamed.name).not.toContain(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a file over the script limit before reading it, naming the path and the limit", async () => {
    const dir = await mkdtemp(join(tmpdir(), "judge-script-"));
    const path = join(dir, "huge.yaml");
    const handle = await open(path, "w");
    await handle.truncate(600 * 1024 * 1024); // sparse: nothing is written
    await handle.close();
    const error = await ScriptedJudge.load(path).catch((e: Error) => e);
    await rm(dir, { recursive: true });
    expect(error).toBeInstanceOf(JudgeScriptError);
    expect((error as Error).message).toBe(`judge script: ${path} is 629,145,600 bytes; at most 2,097,152 are allowed`);
  });
});
