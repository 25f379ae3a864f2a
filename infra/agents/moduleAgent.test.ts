// `module:<path>`: the user's own replay function, imported from a real file on disk.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RuntimeModel, RuntimeScenario } from "@verdict/domain";
import { loadAgent } from "./agentSpec.js";

let dir: string;
const scenario: RuntimeScenario = { key: "order_status", prompt: "Where is order 4821?", group: "orders", notes: null, expectations: { tools: ["lookup_order"], contains: ["4821"] } };
const model: RuntimeModel = { label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini" };
const signal = () => new AbortController().signal;

/** Writes `source` as `name` in the test folder and returns its path. */
async function file(name: string, source: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, source);
  return path;
}

const load = (path: string) => loadAgent("--agent", `module:${path}`);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-module-agent-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a module agent's replays", () => {
  it("calls the exported replay with the scenario, the model and the budget's signal, and reads its camelCase answer as a replay", async () => {
    const path = await file(
      "named.mjs",
      `export async function replay(scenario, model, { signal }) {
        return { answer: scenario.prompt + " via " + model.label + "/" + model.provider, toolCalls: [{ name: scenario.expectations.tools[0], arguments: { number: "4821" } }],
                 durationMs: 42, inputTokens: 10, outputTokens: 5, cost: 0.001, metadata: { aborted: signal.aborted, group: scenario.group } };
      }\n`,
    );
    const agent = await load(path);
    expect(agent.name).toBe(`module:${path}`);
    expect(await agent.replay(scenario, model, { signal: signal() })).toEqual({
      answer: "Where is order 4821? via gpt-5-mini/openai",
      tool_calls: [{ name: "lookup_order", arguments: { number: "4821" } }],
      duration_ms: 42,
      input_tokens: 10,
      output_tokens: 5,
      cost: 0.001,
      metadata: { aborted: false, group: "orders" },
    });
  });

  it("takes a default-exported function and CommonJS exports; a replay without duration_ms gets the call's wall time", async () => {
    const slow = await load(await file("default.mjs", `export default async () => { await new Promise((r) => setTimeout(r, 60)); return { answer: "done" }; };\n`));
    const replay = await slow.replay(scenario, model, { signal: signal() });
    expect(replay.answer).toBe("done");
    expect(replay.duration_ms).toBeGreaterThanOrEqual(55);
    const cjs = await load(await file("agent.cjs", `module.exports = { replay: (scenario) => ({ answer: "cjs " + scenario.key, tool_calls: ["lookup_order"] }) };\n`));
    expect(await cjs.replay(scenario, model, { signal: signal() })).toMatchObject({ answer: "cjs order_status", tool_calls: [{ name: "lookup_order" }] });
  });

  it("calls an object's or a class instance's replay as its method, with that object as `this` (CLI and worker alike)", async () => {
    const instance = await file(
      "instance.cjs",
      `class MyAgent { constructor() { this.prefix = "Order 4821"; } async replay(scenario) { return { answer: this.prefix + " for " + scenario.key }; } }\nmodule.exports = new MyAgent();\n`,
    );
    const object = await file("object.mjs", `export default { greeting: "Hello from the agent", replay() { return { answer: this.greeting }; } };\n`);
    for (const setting of ["--agent", "VERDICT_AGENT"]) {
      expect((await (await loadAgent(setting, `module:${instance}`)).replay(scenario, model, { signal: signal() })).answer).toBe("Order 4821 for order_status");
      expect((await (await loadAgent(setting, `module:${object}`)).replay(scenario, model, { signal: signal() })).answer).toBe("Hello from the agent");
    }
  });

  it("redacts a model provider's key from the environment that it answers or throws (CLI and worker alike)", async () => {
    const env = { OPENAI_API_KEY: "sk-proj-ENVSECRET1234567890", ANTHROPIC_API_KEY: " sk-ant-SECRET0987654321 " };
    const path = await file(
      "echoes.mjs",
      `export function replay(scenario) {
        if (scenario.key === "throws") throw new TypeError("401 Incorrect API key provided: " + process.env.OPENAI_API_KEY);
        if (scenario.key === "string") throw "bad key " + process.env.OPENAI_API_KEY;
        return { answer: "key " + process.env.ANTHROPIC_API_KEY.trim(), tool_calls: [{ name: "lookup_order", result: { echoed: process.env.OPENAI_API_KEY } }], metadata: { [process.env.OPENAI_API_KEY]: 1 } };
      }\n`,
    );
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const agent = await loadAgent("VERDICT_AGENT", `module:${path}`, env);
      const replayOf = (key: string) => agent.replay({ ...scenario, key }, model, { signal: signal() });
      await expect(replayOf("throws")).rejects.toThrow(new TypeError("401 Incorrect API key provided: [redacted]"));
      await expect(replayOf("string")).rejects.toBe("bad key [redacted]");
      expect(await replayOf("answers")).toMatchObject({ answer: "key [redacted]", tool_calls: [{ name: "lookup_order", result: { echoed: "[redacted]" } }], metadata: { "[redacted]": 1 } });
    } finally {
      for (const name of Object.keys(env)) if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it("passes the signal a budget aborts, so a replay can stop", async () => {
    const agent = await load(await file("waits.mjs", `export const replay = (s, m, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("stopped: " + signal.reason))));\n`));
    const controller = new AbortController();
    const pending = agent.replay(scenario, model, { signal: controller.signal });
    controller.abort("budget spent");
    await expect(pending).rejects.toThrow("stopped: budget spent");
  });

  it("refuses an answer that is no replay, naming what is wrong; the function's own throw reaches the caller as it is", async () => {
    const agent = await load(
      await file(
        "answers.mjs",
        `export function replay(scenario) {
          if (scenario.key === "nothing") return undefined;
          if (scenario.key === "typo") return { answr: "hi" };
          if (scenario.key === "text") return "just text";
          throw new TypeError("the agent crashed");
        }\n`,
      ),
    );
    const replayOf = (key: string) => agent.replay({ ...scenario, key }, model, { signal: signal() });
    await expect(replayOf("nothing")).rejects.toThrow("replay() returned undefined: return a Replay or an object with its keys (answer, tool_calls, …)");
    await expect(replayOf("typo")).rejects.toThrow(/^replay\(\) returned an invalid replay: .*answr/);
    await expect(replayOf("text")).rejects.toThrow(/^replay\(\) returned an invalid replay: .*must be a Replay or an object, got/);
    await expect(replayOf("boom")).rejects.toThrow(new TypeError("the agent crashed"));
    // What JSON cannot hold would crash the event's or the report's JSON: refused here, for the worker too.
    const big = await load(await file("bigint.mjs", `export const replay = () => ({ answer: "a", tool_calls: [{ name: "t", result: 10n }] });\n`));
    await expect(big.replay(scenario, model, { signal: signal() })).rejects.toThrow("replay() returned an invalid replay: replay.tool_calls[0].result: a BigInt (10n)");
  });
});

describe("a module that cannot serve is refused when it loads, naming the setting", () => {
  it("a missing file, a directory, a TypeScript file", async () => {
    await expect(load(join(dir, "none.mjs"))).rejects.toThrow(`--agent: no such file ${join(dir, "none.mjs")}`);
    await mkdir(join(dir, "folder.mjs"));
    await expect(load(join(dir, "folder.mjs"))).rejects.toThrow(`--agent: ${join(dir, "folder.mjs")} is a directory, not a script file`);
    const ts = await file("agent.ts", "export function replay(): object { return { answer: 'x' }; }\n");
    await expect(load(ts)).rejects.toThrow(`--agent: ${ts}: agent module: Node.js 20 imports JavaScript only; compile it to .mjs or .js (tsc, esbuild) and name that file`);
  });

  it("a syntax error, a module that throws as it loads, one without a replay function", async () => {
    const broken = await file("broken.mjs", "export function replay( {\n");
    // Node's own words for the syntax error are asserted by apps/cli/moduleAgentRun.e2e.test.ts: here vitest imports through Vite.
    await expect(load(broken)).rejects.toThrow(`--agent: ${broken}: agent module: could not be imported: `);
    const throws = await file("throws.mjs", `throw new Error("OPENAI_API_KEY is not set");\n`);
    await expect(load(throws)).rejects.toThrow(`--agent: ${throws}: agent module: could not be imported: OPENAI_API_KEY is not set`);
    const none = await file("none-exported.mjs", "export const answer = 42;\n");
    await expect(load(none)).rejects.toThrow(`--agent: ${none}: agent module: exports no replay function; export a function named replay`);
  });

  it("an unknown runtime form names every form there is", async () => {
    await expect(loadAgent("VERDICT_AGENT", "python:agent.py")).rejects.toThrow(
      'VERDICT_AGENT must be scripted:<agent script.yaml>, module:<agent module.mjs>, chat:<chat agent.yaml> or http:<url of your replay endpoint> (got "python:agent.py")',
    );
  });
});
