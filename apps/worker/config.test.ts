import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { agentFromSpec, judgeFromSetting, pricesFromSetting, readWorkerConfig, WorkerConfigError } from "./config.js";
import { AGENT_SCRIPT } from "./testing.js";
import { pricesLine, startupLine } from "./workerLog.js";

const env = { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/verdict", KAFKA_BROKERS: "127.0.0.1:9092, 127.0.0.1:9094", VERDICT_AGENT: "scripted:examples/agent.yaml" };

describe("readWorkerConfig", () => {
  it("reads every setting, with all roles by default", () => {
    expect(readWorkerConfig({ ...env, VERDICT_REPLAY_TIMEOUT_MS: "5000", VERDICT_JUDGE: "scripted:j.yaml", VERDICT_TOPIC_PREFIX: "ci." }, [])).toEqual({
      databaseUrl: env.DATABASE_URL,
      kafkaBrokers: ["127.0.0.1:9092", "127.0.0.1:9094"],
      agent: "scripted:examples/agent.yaml",
      judge: "scripted:j.yaml",
      prices: null,
      replayTimeoutMs: 5000,
      judgeTimeoutMs: 120_000,
      concurrency: 4,
      roles: ["dispatcher", "replay", "complete"],
      partitions: 6,
      replayKey: "run",
      topicPrefix: "ci.",
      nice: 10,
      watchdogStallMs: 600_000,
      pg: { connectTimeoutMs: 10_000, keepAliveIdleMs: 10_000, sessionCheckMs: 5_000, queryTimeoutMs: 60_000 },
      shutdownGraceMs: 20_000,
    });
    expect(readWorkerConfig({ ...env, VERDICT_SHUTDOWN_GRACE_MS: "0" }, []).shutdownGraceMs).toBe(0);
    expect(() => readWorkerConfig({ ...env, VERDICT_SHUTDOWN_GRACE_MS: "20s" }, [])).toThrow(/^VERDICT_SHUTDOWN_GRACE_MS must be a whole number of milliseconds >= 0/);
    expect(readWorkerConfig({ ...env, VERDICT_PG_CONNECT_TIMEOUT_MS: "2000" }, []).pg.connectTimeoutMs).toBe(2_000);
    // Checked before anything starts, as a worker setting.
    expect(() => readWorkerConfig({ ...env, VERDICT_PG_SESSION_CHECK_MS: "5s" }, [])).toThrow('VERDICT_PG_SESSION_CHECK_MS must be a whole number of milliseconds >= 1 (got "5s")');
    // The query deadline: 0 is none, and a bad value stops the worker at start naming it.
    expect(readWorkerConfig({ ...env, VERDICT_PG_QUERY_TIMEOUT_MS: "0" }, []).pg.queryTimeoutMs).toBeNull();
    expect(() => readWorkerConfig({ ...env, VERDICT_PG_QUERY_TIMEOUT_MS: "60s" }, [])).toThrow(WorkerConfigError);
    expect(() => readWorkerConfig({ ...env, VERDICT_PG_QUERY_TIMEOUT_MS: "60s" }, [])).toThrow('VERDICT_PG_QUERY_TIMEOUT_MS must be a whole number of milliseconds >= 1, or 0 for no deadline (got "60s")');
    expect(readWorkerConfig({ ...env, VERDICT_WORKER_NICE: "0" }, []).nice).toBe(0);
    expect(readWorkerConfig({ ...env, VERDICT_WATCHDOG_STALL_MS: "300000" }, []).watchdogStallMs).toBe(300_000);
    // No longer than a replay's budget: slow replays were taken for lost jobs and their run failed.
    expect(() => readWorkerConfig({ ...env, VERDICT_WATCHDOG_STALL_MS: "20000", VERDICT_REPLAY_TIMEOUT_MS: "120000" }, [])).toThrow(
      "VERDICT_WATCHDOG_STALL_MS (20000) must be longer than VERDICT_REPLAY_TIMEOUT_MS (120000)",
    );
    expect(readWorkerConfig({ ...env, VERDICT_WATCHDOG_STALL_MS: "20000", VERDICT_REPLAY_TIMEOUT_MS: "10000" }, []).watchdogStallMs).toBe(20_000);
    expect(readWorkerConfig({ ...env, VERDICT_WATCHDOG_STALL_MS: "20000", VERDICT_AGENT: "" }, ["--complete"]).watchdogStallMs).toBe(20_000); // no dispatcher here
    expect(readWorkerConfig({ ...env, VERDICT_WATCHDOG_STALL_MS: "0" }, []).watchdogStallMs).toBeNull();
  });

  it("takes roles from flags; a process that does not replay needs no agent", () => {
    const config = readWorkerConfig({ ...env, VERDICT_AGENT: "" }, ["--dispatcher", "--complete"]);
    expect(config.roles).toEqual(["dispatcher", "complete"]);
    expect(config.agent).toBeNull();
    expect(config.judge).toBe("none");
    expect(readWorkerConfig({ ...env, VERDICT_JUDGE_TIMEOUT_MS: "30000" }, []).judgeTimeoutMs).toBe(30000);
    // 0 turns the limit off, as it does VERDICT_WATCHDOG_STALL_MS.
    expect(readWorkerConfig({ ...env, VERDICT_JUDGE_TIMEOUT_MS: "0" }, []).judgeTimeoutMs).toBeNull();
  });

  it("names the missing or malformed setting", () => {
    expect(() => readWorkerConfig({ ...env, DATABASE_URL: "" }, [])).toThrow(/^DATABASE_URL is not set/);
    expect(() => readWorkerConfig({ ...env, KAFKA_BROKERS: " " }, [])).toThrow(/^KAFKA_BROKERS is not set: /);
    // Set, but to commas alone: it names no broker (it said "is not set").
    expect(() => readWorkerConfig({ ...env, KAFKA_BROKERS: " , " }, [])).toThrow('KAFKA_BROKERS names no broker (got " , "): name the Kafka brokers as host:port');
    // Not echoed: it may hold a password (SASL is not supported).
    expect(() => readWorkerConfig({ ...env, KAFKA_BROKERS: "user:CANARY-KAFKA-PW9@127.0.0.1:9092" }, [])).toThrow(/^KAFKA_BROKERS entry 1 is not host:port: .*\(value not shown\)$/);
    expect(() => readWorkerConfig({ ...env, VERDICT_AGENT: undefined }, ["--replay"])).toThrow(/^VERDICT_AGENT is not set/);
    expect(() => readWorkerConfig({ ...env, VERDICT_REPLAY_TIMEOUT_MS: "1.5" }, [])).toThrow('VERDICT_REPLAY_TIMEOUT_MS must be a whole number of milliseconds >= 1 (got "1.5")');
    expect(() => readWorkerConfig(env, ["--judge"])).toThrow('unknown argument "--judge"');
    expect(() => readWorkerConfig({ ...env, VERDICT_REPLAY_KEY: "scenario" }, [])).toThrow('VERDICT_REPLAY_KEY must be "run" or "pair"');
    expect(() => readWorkerConfig({ ...env, VERDICT_WORKER_NICE: "20" }, [])).toThrow('VERDICT_WORKER_NICE must be a whole number 0-19 (got "20")');
    expect(() => readWorkerConfig({ ...env, VERDICT_WATCHDOG_STALL_MS: "soon" }, [])).toThrow('VERDICT_WATCHDOG_STALL_MS must be a whole number of milliseconds >= 1, or 0 for no limit (got "soon")');
    expect(() => readWorkerConfig({ ...env, VERDICT_JUDGE_TIMEOUT_MS: "none" }, [])).toThrow('VERDICT_JUDGE_TIMEOUT_MS must be a whole number of milliseconds >= 1, or 0 for no limit (got "none")');
    expect(() => readWorkerConfig({ ...env, VERDICT_JUDGE_TIMEOUT_MS: "-5" }, [])).toThrow('VERDICT_JUDGE_TIMEOUT_MS must be a whole number of milliseconds >= 1, or 0 for no limit (got "-5")');
    // Decimal digits only, read as the API's and VERDICT_PG_* are: Number() took "0x10" for 16 and "1e6" for 1000000.
    expect(() => readWorkerConfig({ ...env, VERDICT_WORKER_CONCURRENCY: "0x10" }, [])).toThrow('VERDICT_WORKER_CONCURRENCY must be a whole number >= 1 (got "0x10")');
    expect(() => readWorkerConfig({ ...env, VERDICT_REPLAY_TIMEOUT_MS: "3000000000" }, [])).toThrow('VERDICT_REPLAY_TIMEOUT_MS must be at most 2147483647 milliseconds (about 24.8 days), the longest a timer waits (got "3000000000")');
    expect(() => readWorkerConfig({ ...env, VERDICT_WATCHDOG_STALL_MS: "1e6" }, [])).toThrow('VERDICT_WATCHDOG_STALL_MS must be a whole number of milliseconds >= 1, or 0 for no limit (got "1e6")');
    expect(() => readWorkerConfig({ ...env, VERDICT_JUDGE_TIMEOUT_MS: "0x0" }, [])).toThrow('VERDICT_JUDGE_TIMEOUT_MS must be a whole number of milliseconds >= 1, or 0 for no limit (got "0x0")');
    expect(() => readWorkerConfig({ ...env, VERDICT_WORKER_NICE: "0b101" }, [])).toThrow('VERDICT_WORKER_NICE must be a whole number 0-19 (got "0b101")');
    expect(readWorkerConfig({ ...env, VERDICT_KAFKA_PARTITIONS: " 12 " }, []).partitions).toBe(12);
    expect(() => readWorkerConfig({ ...env, VERDICT_TOPIC_PREFIX: "team a/" }, [])).toThrow('VERDICT_TOPIC_PREFIX must be at most 200 letters, digits, ".", "_" or "-" (Kafka topic names) (got "team a/")');
  });
});

describe("VERDICT_PRICES", () => {
  it("names the price table file, for a process that does not replay too (it is checked there, then said not to be used)", () => {
    expect(readWorkerConfig({ ...env, VERDICT_PRICES: " prices.yaml " }, []).prices).toBe("prices.yaml");
    expect(readWorkerConfig({ ...env, VERDICT_PRICES: "" }, []).prices).toBeNull();
    expect(readWorkerConfig({ ...env, VERDICT_PRICES: "prices.yaml" }, ["--dispatcher", "--complete"]).prices).toBe("prices.yaml");
    expect(readWorkerConfig({ ...env, VERDICT_PRICES: "prices.yaml" }, ["--dispatcher"]).prices).toBe("prices.yaml");
    expect(pricesLine("prices.yaml", 2, true)).toBe("prices prices.yaml (2 models): a replay reporting no cost is recorded with its estimated cost (from its tokens; a count it does not give, from characters ÷ 4: a lower bound)");
    expect(pricesLine("prices.yaml", 1, true)).toBe("prices prices.yaml (1 model): a replay reporting no cost is recorded with its estimated cost (from its tokens; a count it does not give, from characters ÷ 4: a lower bound)");
    expect(pricesLine("prices.yaml", 2, false)).toBe("prices prices.yaml (2 models) checked, not used: this process does not replay (the --replay role prices replays)");
  });

  it("stops a process without the replay role at start on a bad file, naming the setting, the file, the path and the rule", async () => {
    const dir = await mkdtemp(join(tmpdir(), "prices-"));
    const bad = join(dir, "prices.yaml");
    await writeFile(bad, "models:\n  gpt-5-mini: { input: 1e12, output: 2 }\n");
    // Nothing listens on port 1: the file is refused before the database is tried.
    const child = spawnSync(process.execPath, ["--import", "tsx", "apps/worker/main.ts", "--dispatcher", "--complete"], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      env: { ...process.env, DATABASE_URL: "postgres://verdict@127.0.0.1:1/verdict", KAFKA_BROKERS: "127.0.0.1:1", VERDICT_PRICES: bad, VERDICT_WORKER_NICE: "0" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(child.status).toBe(2); // a setting to fix, as the API exits on one
    expect(child.stderr).toContain(`[worker] error: VERDICT_PRICES: ${bad}: models.gpt-5-mini.input: must be at most 1,000,000 (USD per million tokens), got 1000000000000`);
  }, 70_000);

  it("loads the table, or refuses a bad file as a setting to fix, naming the setting, the file, the path and the rule", async () => {
    const dir = await mkdtemp(join(tmpdir(), "prices-"));
    const good = join(dir, "prices.yaml");
    await writeFile(good, "models:\n  gpt-5-mini: { input: 0.25, output: 2 }\n");
    expect(pricesFromSetting(good).rateFor({ label: "gpt-5-mini", model: "gpt-5-mini" })).toMatchObject({ input: 0.25, output: 2 });
    const bad = join(dir, "bad.yaml");
    await writeFile(bad, "models:\n  gpt-5-mini: { input: 0.25 }\n");
    expect(() => pricesFromSetting(bad)).toThrow(expect.objectContaining({ code: "validation", message: `VERDICT_PRICES: ${bad}: models.gpt-5-mini.output: missing (USD per million output tokens)` }));
    // The rule PriceTable.parse holds for both doors: a rate written other than as a decimal number.
    const hex = join(dir, "hex.yaml");
    await writeFile(hex, "models:\n  gpt-5-mini: { input: 0o17, output: 2 }\n");
    expect(() => pricesFromSetting(hex)).toThrow(`VERDICT_PRICES: ${hex}: models.gpt-5-mini.input: must be written as a decimal number such as 2.5 (USD per million tokens), got 0o17 (read as 15)`);
    expect(() => pricesFromSetting(join(dir, "nope.yaml"))).toThrow(`VERDICT_PRICES: ${join(dir, "nope.yaml")}: no such file`);
  });
});

describe("agentFromSpec", () => {
  it("loads a scripted agent and an agent module, builds an http one, refuses anything else", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agent-"));
    const path = join(dir, "agent.yaml");
    await writeFile(path, AGENT_SCRIPT);
    expect((await agentFromSpec(`scripted:${path}`)).name).toBe(`scripted:${path}`);
    expect((await agentFromSpec("http:https://agent.example.com/replay")).name).toBe("http:https://agent.example.com");
    const module = join(dir, "agent.mjs");
    await writeFile(module, "export async function replay(scenario) { return { answer: `on ${scenario.key}` }; }\n");
    expect((await agentFromSpec(`module:${module}`)).name).toBe(`module:${module}`);
    await expect(agentFromSpec("python:./agent.py")).rejects.toThrow(
      'VERDICT_AGENT must be scripted:<agent script.yaml>, module:<agent module.mjs>, chat:<chat agent.yaml> or http:<url of your replay endpoint> (got "python:./agent.py")',
    );
  });
});

describe("a bad VERDICT_AGENT, VERDICT_JUDGE or DATABASE_URL names the setting and shows no secret", () => {
  it("names the setting for a script that is missing, a directory or malformed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agent-"));
    const malformed = join(dir, "malformed.yaml");
    await writeFile(malformed, "replies:\n  - key: a\n    latency_ms: slow\n");
    await expect(agentFromSpec(`scripted:${join(dir, "nope.yaml")}`)).rejects.toThrow(`VERDICT_AGENT: no such file ${join(dir, "nope.yaml")}`);
    await expect(agentFromSpec(`scripted:${dir}`)).rejects.toThrow(`VERDICT_AGENT: ${dir} is a directory, not a script file`);
    await expect(agentFromSpec(`scripted:${malformed}`)).rejects.toThrow(new RegExp(`^VERDICT_AGENT: ${malformed}: agent script: replies\\.0\\.latency_ms: `));
    await expect(judgeFromSetting(`scripted:${join(dir, "nope.yaml")}`)).rejects.toThrow(`VERDICT_JUDGE: no such file ${join(dir, "nope.yaml")}`);
    await expect(judgeFromSetting("none")).resolves.toBeNull();
    // Its own variable named, as a WorkerConfigError (main prints it as a setting to fix): the
    // worker does not take `verdict run`'s providers:MODEL pin, which it refused as an unknown form.
    await expect(judgeFromSetting("providers", {})).rejects.toMatchObject({ code: "validation", message: expect.stringMatching(/^VERDICT_JUDGE: "providers" judges need a model provider/) });
    await expect(judgeFromSetting("providers:gpt-5", { OPENAI_API_KEY: "sk-test" })).rejects.toMatchObject({
      code: "validation",
      message: 'VERDICT_JUDGE takes no judge model (got "providers:gpt-5"): each run is judged on the judge model its evaluation names; set VERDICT_JUDGE=providers',
    });
    await expect(judgeFromSetting("gpt-5")).rejects.toMatchObject({ code: "validation" });
  });

  it("refuses a URL that does not parse without echoing it", async () => {
    const bad = (promise: Promise<unknown>) => promise.then(() => "", (error: Error) => error.message);
    const agent = await bad(agentFromSpec("http:https://bob:S3cret@ho st/replay"));
    expect(agent).toMatch(/^VERDICT_AGENT: http: needs the URL/);
    expect(agent).not.toContain("S3cret");
    expect(await bad(agentFromSpec("http:ftp://bob:S3cret@host/hooks/T0KEN/replay"))).toBe("VERDICT_AGENT: agent url must be http(s): ftp://host");
    const database = bad(Promise.resolve().then(() => readWorkerConfig({ ...env, DATABASE_URL: "postgres://bob:S3cret@host:port/verdict" }, [])));
    expect(await database).toMatch(/^DATABASE_URL is not a valid URL: /);
    expect(await database).not.toContain("S3cret");
  });

  it("says the http: prefix is missing before a URL, or the scheme after it, showing the corrected shape with the origin alone", async () => {
    const bad = (promise: Promise<unknown>) => promise.then(() => "", (error: Error) => error.message);
    const notShown = "(value not shown: it may carry a password or a token)";
    expect(await bad(agentFromSpec("http://127.0.0.1:8080/replay"))).toBe(`VERDICT_AGENT: the http: prefix is missing before the URL: write http:http://127.0.0.1:8080/… ${notShown}`);
    expect(await bad(agentFromSpec("https://bob:S3cret@host/replay?api_key=QUERYSECRET"))).toBe(`VERDICT_AGENT: the http: prefix is missing before the URL: write http:https://host/… ${notShown}`);
    expect(await bad(agentFromSpec("https://ho st/replay"))).toBe(`VERDICT_AGENT: the http: prefix is missing before the URL: write http:https://host/replay ${notShown}`);
    expect(await bad(agentFromSpec("http:localhost:8080"))).toBe('VERDICT_AGENT: the URL after http: has no scheme (http:// or https://), e.g. http:http://localhost:8080 (got "http:localhost:8080")');
    expect(await bad(agentFromSpec("http:bob:S3cret@host:8080/hooks/T0KEN/replay"))).toBe(`VERDICT_AGENT: the URL after http: has no scheme (http:// or https://), e.g. http:http://host:8080/… ${notShown}`);
  });

  it("starts its log with the http agent's origin only: a token in the URL's path, user, password or query is never printed", async () => {
    const agent = await agentFromSpec("http:https://bob:S3cret@agent.example.com:8443/hooks/T0KEN/replay?api_key=QUERYSECRET#frag");
    expect(startupLine(agent, null, 4242)).toBe("agent http:https://agent.example.com:8443, judge none (rules only), pid 4242");
  });

  it("shows back a mistyped setting, but never one that holds a URL (its prefix forgotten or mistyped)", async () => {
    const bad = (promise: Promise<unknown>) => promise.then(() => "", (error: Error) => error.message);
    expect(await bad(agentFromSpec("scriptd:agent.yaml"))).toContain('(got "scriptd:agent.yaml")');
    for (const spec of ["HTTP:https://host/replay?api_key=QUERYSECRET", "host/replay#token=T0KEN"]) {
      const message = await bad(agentFromSpec(spec));
      expect(message).toMatch(/^VERDICT_AGENT must be scripted:.*\(value not shown: it may carry a password or a token\)$/);
      expect(message).not.toMatch(/S3cret|QUERYSECRET|T0KEN/);
    }
    const judge = await bad(judgeFromSetting("http:https://judge:JUDGEPW@host/j"));
    expect(judge).toMatch(/^VERDICT_JUDGE must be "none", "providers" or "scripted:<path to a judge script>" \(value not shown/);
    expect(judge).not.toContain("JUDGEPW");
    expect(await bad(judgeFromSetting("gpt-5"))).toContain('(got "gpt-5")');
  });
});

describe("apps/worker/README.md", () => {
  it("starts the worker with files and settings that exist", async () => {
    const readme = await readFile(new URL("./README.md", import.meta.url), "utf8");
    const command = readme.slice(readme.indexOf("```\n") + 4, readme.indexOf("\n```", readme.indexOf("```\n") + 4));
    const agent = /VERDICT_AGENT=scripted:(\S+)/.exec(command)?.[1];
    expect(agent).toBeDefined();
    await expect(agentFromSpec(`scripted:${fileURLToPath(new URL(`../../${agent}`, import.meta.url))}`)).resolves.toBeDefined();
    // Every variable the README's table lists is one the worker reads: its settings (config.ts),
    // the PostgreSQL connection settings and the topic prefix they take from infra, and the log's debug switch.
    const readers = ["./config.ts", "../../infra/pg/settings.ts", "../../infra/jobbus/topicPrefix.ts", "./workerLog.ts"];
    const sources = (await Promise.all(readers.map((path) => readFile(new URL(path, import.meta.url), "utf8")))).join("\n");
    for (const [, name] of readme.matchAll(/^\| `([A-Z_]+)` \|/gm)) expect(sources, name).toContain(name);
  });
});
