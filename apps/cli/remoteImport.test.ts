// `verdict evals import FILE --evaluation ID --url URL` against a real API on a real port: the
// envelope goes through the API's importReport with the key in VERDICT_API_KEY, and the answer is
// the exit code a local import gives (0, a duplicate 0, a conflict 3, a bad evaluation 2 naming
// --evaluation); a refused key is 5 and an API that cannot be used 4, naming the URL. The key is
// never in the output, and a usage error or a bad file makes no request. A report past the
// API's quota is read from `errors` (importReport answers null beside it): exit 1, naming it.
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importedRunId } from "@verdict/domain";
import { startPlatform, type Platform } from "../api/testing/harness.js";
import { cli } from "./testing.js";

const dir = await mkdtemp(join(tmpdir(), "verdict-remote-import-"));
// A home that is never made: an import with --url opens no local store.
const home = join(dir, "home");
let p: Platform;
let evaluationId: string;

const envelope = (threshold: number) => ({
  version: 1, run_id: "ci-7", source: "ci", agent_name: "SupportAgent", suite: "support",
  report: { threshold, models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results: [{ scenario_key: "refund", label: "gpt-5-mini", status: "passed" }] },
});

async function file(name: string, content: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(content));
  return path;
}

/** `verdict evals import` with `key` in VERDICT_API_KEY (when given); the key must show nowhere in what it prints. */
async function imports(argv: string[], key: string | null, extra: NodeJS.ProcessEnv = {}) {
  const result = await cli(["evals", "import", ...argv], { VERDICT_HOME: home, ...(key === null ? {} : { VERDICT_API_KEY: key }), ...extra });
  if (key) expect(`${result.stdout}\n${result.stderr}`).not.toContain(key);
  return result;
}

/** A local HTTP server answering every request with `answer`, counting them. */
async function fakeServer(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((req, res) => {
    count += 1;
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

beforeAll(async () => {
  p = await startPlatform();
  const created = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "SupportAgent", name: "support", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
  evaluationId = created.body.data.createEvaluation.evaluationId;
}, 60_000);

afterAll(async () => {
  await p?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("verdict evals import --url", () => {
  it("imports through the API; the same report again is a duplicate (exit 0) and a changed one a conflict (exit 3)", async () => {
    const saved = await file("ci-7.json", envelope(0.7));
    const runId = importedRunId("acme", "ci-7");
    const key = p.keys.acmeWrite;
    expect(await imports([saved, "--evaluation", evaluationId, "--url", p.api.url], key)).toEqual({
      code: 0, stdout: runId, stderr: `imported ci-7 as run ${runId} (#1) of evaluation ${evaluationId} at ${p.api.url}`,
    });
    const run = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { id hostRunId origin status } }`, { r: runId });
    expect(run.body.data.run).toEqual({ id: runId, hostRunId: "ci-7", origin: "IMPORTED", status: "COMPLETED" });
    // Again, here by the GraphQL URL `verdict start` prints (taken as its base URL).
    expect(await imports([saved, "--evaluation", evaluationId, "--url", `${p.api.graphqlUrl}/`], key)).toEqual({
      code: 0, stdout: runId, stderr: `ci-7 was imported before with this report, as run ${runId} (#1): nothing written`,
    });
    const changed = await file("ci-7-changed.json", envelope(0.5));
    expect(await imports([changed, "--evaluation", evaluationId, "--url", p.api.url], key)).toEqual({
      code: 3, stdout: "", stderr: `${changed}: run_id already exists with a different report`,
    });
    expect(existsSync(home)).toBe(false);
  }, 60_000);

  it("imports a bare report that names no agent as a run of the evaluation's agent, asked of the API", async () => {
    const { agent_name: _named, ...withoutAgent } = envelope(0.7).report as Record<string, unknown>;
    const bare = await file("bare-no-agent.json", withoutAgent);
    const key = p.keys.acmeWrite;
    const imported = await imports([bare, "--evaluation", evaluationId, "--run-id", "ci-bare", "--url", p.api.url], key);
    expect(imported).toMatchObject({ code: 0, stdout: importedRunId("acme", "ci-bare") });
    const run = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { hostRunId origin } }`, { r: imported.stdout });
    expect(run.body.data.run).toEqual({ hostRunId: "ci-bare", origin: "IMPORTED" });
  }, 60_000);

  it("refuses a read key and an unknown key with exit 5, never printing the key", async () => {
    const saved = await file("ci-read.json", { ...envelope(0.7), run_id: "ci-read" });
    const argv = [saved, "--evaluation", evaluationId, "--url", p.api.url];
    expect(await imports(argv, p.keys.acmeRead)).toEqual({
      code: 5, stdout: "", stderr: `the API at ${p.api.url} refused VERDICT_API_KEY: this API key may only read; mutations need a write key`,
    });
    const wrong = `${p.keys.acmeWrite.slice(0, -4)}zzzz`;
    expect(await imports(argv, wrong)).toEqual({ code: 5, stdout: "", stderr: `the API at ${p.api.url} refused VERDICT_API_KEY: the API key is unknown or revoked` });
    expect((await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { id } }`, { r: importedRunId("acme", "ci-read") })).body.errors[0].extensions.code).toBe("NOT_FOUND");
  }, 60_000);

  it("refuses an unknown evaluation, or another tenant's, with exit 2 naming --evaluation", async () => {
    const saved = await file("ci-8.json", { ...envelope(0.7), run_id: "ci-8" });
    const missing = randomUUID();
    const absent = await imports([saved, "--evaluation", missing, "--url", p.api.url], p.keys.acmeWrite);
    expect(absent).toEqual({ code: 2, stdout: "", stderr: `--evaluation: evaluation ${missing} not found` });
    const foreign = await imports([saved, "--evaluation", evaluationId, "--url", p.api.url], p.keys.globexWrite);
    expect({ ...foreign, stderr: foreign.stderr.replaceAll(evaluationId, "<id>") }).toEqual({ ...absent, stderr: absent.stderr.replaceAll(missing, "<id>") });
  }, 60_000);

  it("refuses usage errors and a bad envelope with exit 2 before any request", async () => {
    const server = await fakeServer((_req, res) => res.end("{}"));
    try {
      const saved = await file("ci-9.json", { ...envelope(0.7), run_id: "ci-9" });
      const badVersion = await file("v2.json", { ...envelope(0.7), version: 2 });
      const at = (...more: string[]) => [saved, "--evaluation", evaluationId, "--url", server.url, ...more];
      const cases: Array<[string[], string | null, NodeJS.ProcessEnv, string]> = [
        [at(), null, {}, "verdict evals import: --url needs an API key in VERDICT_API_KEY"],
        [at(), "   ", {}, "verdict evals import: --url needs an API key in VERDICT_API_KEY"],
        [at(), "vk_with a space", {}, "verdict evals import: VERDICT_API_KEY holds a space"],
        [at("--tenant", "acme"), "vk_key", {}, "verdict evals import: --tenant does not apply with --url: the API key (VERDICT_API_KEY) decides the tenant there"],
        [[saved, "--evaluation", evaluationId, "--url", server.url.replace("//", "//me:s3cret@")], "vk_key", {}, "verdict evals import: --url must not hold a user name or password"],
        [[saved, "--evaluation", evaluationId, "--url", "ftp://127.0.0.1/"], "vk_key", {}, "verdict evals import: --url must be an http:// or https:// URL"],
        [[saved, "--evaluation", evaluationId, "--url", `${server.url}/?key=1`], "vk_key", {}, "verdict evals import: --url must be the API's base URL, without a query"],
        [at(), "vk_key", { VERDICT_API_TIMEOUT_MS: "soon" }, 'verdict evals import: VERDICT_API_TIMEOUT_MS must be a whole number of milliseconds above 0 and at most 86400000, e.g. 60000 (got "soon")'],
        [[badVersion, "--evaluation", evaluationId, "--url", server.url], "vk_key", {}, `${badVersion}: envelope.version: must be 1`],
        // Plain http to another machine would send the key in clear: refused unless asked for.
        [[saved, "--evaluation", evaluationId, "--url", "http://10.1.2.3:4000"], "vk_key", {}, "verdict evals import: --url is plain http:// to 10.1.2.3, which would send VERDICT_API_KEY unencrypted: use https://, or pass --insecure-http on a network you trust"],
        [[saved, "--evaluation", evaluationId, "--insecure-http"], "vk_key", {}, "verdict evals import: --insecure-http applies only with --url"],
      ];
      for (const [argv, key, extra, message] of cases) {
        const result = await imports(argv, key, extra);
        expect({ code: result.code, stdout: result.stdout }, argv.join(" ")).toEqual({ code: 2, stdout: "" });
        expect(result.stderr, argv.join(" ")).toContain(message);
        expect(result.stderr, argv.join(" ")).not.toContain("s3cret");
      }
      expect(server.requests()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("names the URL of an API that cannot be used (exit 4): nothing listening, an HTML page, no answer in VERDICT_API_TIMEOUT_MS, a redirect, an answer broken off", async () => {
    const saved = await file("ci-10.json", { ...envelope(0.7), run_id: "ci-10" });
    const key = p.keys.acmeWrite;
    const closed = await fakeServer(() => undefined);
    await closed.close();
    expect(await imports([saved, "--evaluation", evaluationId, "--url", closed.url], key)).toEqual({
      code: 4, stdout: "", stderr: `the API at ${closed.url} cannot be reached (ECONNREFUSED)`,
    });
    const html = await fakeServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>Welcome</title>"));
    const hung = await fakeServer(() => undefined);
    const moved = await fakeServer((_req, res) => res.writeHead(301, { location: "https://elsewhere.example/graphql" }).end());
    const broken = await fakeServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" }).write('{"data":');
      setTimeout(() => res.destroy(), 50);
    });
    try {
      expect(await imports([saved, "--evaluation", evaluationId, "--url", `${html.url}/app`], key)).toEqual({
        code: 4, stdout: "", stderr: `${html.url}/app/graphql answered HTTP 200 (text/html), not a GraphQL answer: is the URL the Verdict API's base URL (e.g. http://host:4000)?`,
      });
      expect(html.requests()).toBe(1);
      expect(await imports([saved, "--evaluation", evaluationId, "--url", hung.url], key, { VERDICT_API_TIMEOUT_MS: "500" })).toEqual({
        code: 4, stdout: "", stderr: `the API at ${hung.url} did not answer within 0.5 s`,
      });
      // A redirect is not followed, so the key goes nowhere else.
      expect(await imports([saved, "--evaluation", evaluationId, "--url", moved.url], key)).toEqual({
        code: 4, stdout: "", stderr: `${moved.url}/graphql answered HTTP 301, a redirect to https://elsewhere.example/graphql, which is not followed (the key would go with it): give the URL it names`,
      });
      expect(await imports([saved, "--evaluation", evaluationId, "--url", broken.url], key)).toMatchObject({
        code: 4, stdout: "", stderr: expect.stringMatching(new RegExp(`^the API at ${broken.url} broke off its answer \\(`)),
      });
    } finally {
      await Promise.all([html.close(), hung.close(), moved.close(), broken.close()]);
    }
  }, 30_000);

  it("stops reading an answer past 1 MiB, and shows a server's message up to 500 bytes", async () => {
    const saved = await file("ci-11.json", { ...envelope(0.7), run_id: "ci-11" });
    const key = p.keys.acmeWrite;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    // An answer without end: the command must not hold it all (it grew to gigabytes before).
    const endless = await fakeServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).write('{"errors":[{"message":"');
      const pump = () => { while (!res.destroyed && res.write(chunk)); };
      res.on("drain", pump);
      pump();
    });
    const shouting = await fakeServer((_req, res) => res.writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ errors: [{ message: `\u001b[2J${"x".repeat(200_000)}`, extensions: { code: "INTERNAL_SERVER_ERROR" } }] })));
    try {
      expect(await imports([saved, "--evaluation", evaluationId, "--url", endless.url], key)).toEqual({
        code: 4, stdout: "", stderr: `${endless.url}/graphql answered more than 1048576 bytes, more than this request's answer can be: is the URL the Verdict API's base URL (e.g. http://host:4000)?`,
      });
      const loud = await imports([saved, "--evaluation", evaluationId, "--url", shouting.url], key);
      expect(loud.code).toBe(1);
      expect(loud.stderr).toMatch(new RegExp(`^verdict evals import failed: the API at ${shouting.url} answered INTERNAL_SERVER_ERROR: \\\\u001b\\[2Jx+…$`));
      expect(loud.stderr.length).toBeLessThan(700);
    } finally {
      await Promise.all([endless.close(), shouting.close()]);
    }
  }, 30_000);
});

describe("verdict evals import --url past the API's report quota", () => {
  it("reads the refusal from `errors` (importReport answers null beside it, HTTP 429): exit 1 naming REPORT_LIMIT_REACHED, nothing stored", async () => {
    const limited = await startPlatform({ plan: { reportsPerMonth: 1 } });
    try {
      const made = await limited.gql(limited.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "SupportAgent", name: "support", compareModels: ["gpt-5-mini"] }) { evaluationId } }`);
      const limitedEvaluation: string = made.body.data.createEvaluation.evaluationId;
      const first = await file("quota-1.json", { ...envelope(0.7), run_id: "quota-1" });
      expect((await imports([first, "--evaluation", limitedEvaluation, "--url", limited.api.url], limited.keys.acmeWrite)).code).toBe(0);
      const second = await file("quota-2.json", { ...envelope(0.7), run_id: "quota-2" });
      // What the CLI reads: a payload of null beside the refusal, not `data: null`.
      const raw = await limited.gql(limited.keys.acmeWrite, `mutation ($e: ID!, $v: JSON!) { importReport(evaluationId: $e, envelope: $v) { runId } }`, { e: limitedEvaluation, v: { ...envelope(0.7), run_id: "quota-2" } });
      expect(raw.status).toBe(429);
      expect(raw.body.data).toEqual({ importReport: null });
      const refused = await imports([second, "--evaluation", limitedEvaluation, "--url", limited.api.url], limited.keys.acmeWrite);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe("");
      expect(refused.stderr).toMatch(new RegExp(`^verdict evals import failed: the API at ${limited.api.url} answered REPORT_LIMIT_REACHED: Plan limit reached: `));
      const run = await limited.gql(limited.keys.acmeRead, `query ($r: ID!) { run(id: $r) { id } }`, { r: importedRunId("acme", "quota-2") });
      expect(run.body.errors[0].extensions.code).toBe("NOT_FOUND");
    } finally {
      await limited.close();
    }
  }, 60_000);
});
