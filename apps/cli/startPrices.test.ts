// `verdict start` and VERDICT_PRICES: its worker replays, so it reads the price table a worker
// process reads (it was silently ignored): a bad file stops it before anything is opened (exit 2,
// naming the setting, the file, the path and the rule), a good one prices the example's replays
// that report tokens but no cost.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "./testing.js";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "verdict-start-prices-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("verdict start with VERDICT_PRICES", () => {
  it("refuses a bad price table with exit 2, naming the setting, the file, the path and the rule, before opening the home", async () => {
    const home = join(dir, "bad-home");
    const absurd = join(dir, "absurd.yaml");
    await writeFile(absurd, "models:\n  gpt-5-mini: { input: 1e12, output: 2 }\n");
    expect(await cli(["start", "--exit", "--port", "0"], { VERDICT_HOME: home, VERDICT_PRICES: absurd })).toEqual({
      code: 2,
      stdout: "",
      stderr: `verdict start: VERDICT_PRICES: ${absurd}: models.gpt-5-mini.input: must be at most 1,000,000 (USD per million tokens), got 1000000000000: is it a price per token, or an exponent too many?`,
    });
    const missing = join(dir, "none.yaml");
    expect(await cli(["start", "--exit", "--port", "0"], { VERDICT_HOME: home, VERDICT_PRICES: missing })).toMatchObject({ code: 2, stderr: `verdict start: VERDICT_PRICES: ${missing}: no such file` });
    expect(existsSync(home)).toBe(false);
  });

  it("prices the example's replays that report tokens but no cost, as a worker does", async () => {
    const prices = join(dir, "prices.yaml");
    // The example's qwen replies report their tokens and no cost.
    await writeFile(prices, "models:\n  ollama/qwen3:8b: { input: 1, output: 2 }\n");
    const started = await cli(["start", "--exit", "--port", "0", "--models", "ollama/qwen3:8b"], { VERDICT_HOME: join(dir, "home"), VERDICT_PRICES: prices });
    expect(started.stdout).toContain(`prices ${prices} (1 model): a replay reporting no cost is recorded with its estimated cost (from its tokens; a count it does not give, from characters ÷ 4: a lower bound)`);
    const markdownPath = /Markdown:\s+(\S+?\.md)/.exec(started.stdout)?.[1];
    expect(markdownPath, started.stdout + started.stderr).toBeDefined();
    const markdown = await readFile(markdownPath!, "utf8");
    // order_status: 540 in x $1/M + 31 out x $2/M = $0.000602, estimated.
    expect(markdown).toContain("~$0.000602");
    expect(markdown).toContain("~ estimated from tokens × model rates");
  }, 120_000);
});
