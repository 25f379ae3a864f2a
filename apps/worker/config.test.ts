import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentFromSpec, readWorkerConfig } from "./config.js";
import { AGENT_SCRIPT } from "./testing.js";

const env = { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/verdict", KAFKA_BROKERS: "127.0.0.1:9092, 127.0.0.1:9094", VERDICT_AGENT: "scripted:examples/agent.yaml" };

describe("readWorkerConfig", () => {
  it("reads every setting, with all roles by default", () => {
    expect(readWorkerConfig({ ...env, VERDICT_REPLAY_TIMEOUT_MS: "5000", VERDICT_JUDGE: "scripted:j.yaml", VERDICT_TOPIC_PREFIX: "ci." }, [])).toEqual({
      databaseUrl: env.DATABASE_URL,
      kafkaBrokers: ["127.0.0.1:9092", "127.0.0.1:9094"],
      agent: "scripted:examples/agent.yaml",
      judge: "scripted:j.yaml",
      replayTimeoutMs: 5000,
      judgeTimeoutMs: null,
      concurrency: 4,
      roles: ["dispatcher", "replay", "complete"],
      partitions: 6,
      replayKey: "run",
      topicPrefix: "ci.",
      nice: 10,
      watchdogStallMs: 600_000,
    });
    expect(readWorkerConfig({ ...env, VERDICT_WORKER_NICE: "0" }, []).nice).toBe(0);
    expect(readWorkerConfig({ ...env, VERDICT_WATCHDOG_STALL_MS: "30000" }, []).watchdogStallMs).toBe(30_000);
    expect(readWorkerConfig({ ...env, VERDICT_WATCHDOG_STALL_MS: "0" }, []).watchdogStallMs).toBeNull();
  });

  it("takes roles from flags; a process that does not replay needs no agent", () => {
    const config = readWorkerConfig({ ...env, VERDICT_AGENT: "" }, ["--dispatcher", "--complete"]);
    expect(config.roles).toEqual(["dispatcher", "complete"]);
    expect(config.agent).toBeNull();
    expect(config.judge).toBe("none");
    expect(readWorkerConfig({ ...env, VERDICT_JUDGE_TIMEOUT_MS: "30000" }, []).judgeTimeoutMs).toBe(30000);
  });

  it("names the missing or malformed setting", () => {
    expect(() => readWorkerConfig({ ...env, DATABASE_URL: "" }, [])).toThrow(/^DATABASE_URL is not set/);
    expect(() => readWorkerConfig({ ...env, KAFKA_BROKERS: " , " }, [])).toThrow(/^KAFKA_BROKERS is not set/);
    expect(() => readWorkerConfig({ ...env, VERDICT_AGENT: undefined }, ["--replay"])).toThrow(/^VERDICT_AGENT is not set/);
    expect(() => readWorkerConfig({ ...env, VERDICT_REPLAY_TIMEOUT_MS: "1.5" }, [])).toThrow('VERDICT_REPLAY_TIMEOUT_MS must be a whole number >= 1 (got "1.5")');
    expect(() => readWorkerConfig(env, ["--judge"])).toThrow('unknown argument "--judge"');
    expect(() => readWorkerConfig({ ...env, VERDICT_REPLAY_KEY: "scenario" }, [])).toThrow('VERDICT_REPLAY_KEY must be "run" or "pair"');
    expect(() => readWorkerConfig({ ...env, VERDICT_WORKER_NICE: "20" }, [])).toThrow('VERDICT_WORKER_NICE must be a whole number 0-19 (got "20")');
    expect(() => readWorkerConfig({ ...env, VERDICT_WATCHDOG_STALL_MS: "soon" }, [])).toThrow('VERDICT_WATCHDOG_STALL_MS must be a whole number >= 1 (got "soon")');
  });
});

describe("agentFromSpec", () => {
  it("loads a scripted agent, builds an http one, refuses anything else", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agent-"));
    const path = join(dir, "agent.yaml");
    await writeFile(path, AGENT_SCRIPT);
    expect((await agentFromSpec(`scripted:${path}`)).name).toBe(`scripted:${path}`);
    expect((await agentFromSpec("http:https://agent.example.com/replay")).name).toBe("http:https://agent.example.com/replay");
    await expect(agentFromSpec("module:./agent.js")).rejects.toThrow("VERDICT_AGENT must be scripted:<path to an agent script> or http:<url>");
  });
});
