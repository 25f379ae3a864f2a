// Agents' releases through the API (reference-platform §1 #39-41, §7 item 15): recordAgentRelease,
// startRun pinning the latest, Run.release, Evaluation.standing and headlineRun, and agent(s) with
// the pooled pass rate; tenant-scoped. Shared by agentReleases.test.ts (memory event store, PGlite
// read models) and agentReleases.int.test.ts (PostgreSQL).
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventStore } from "@verdict/domain";
import { collect, finishedSampleRun, startPlatform, type Platform } from "./harness.js";

const RECORD = `mutation ($a: String!, $d: String, $m: JSON, $r: String) {
  recordAgentRelease(agent: $a, digest: $d, manifest: $m, revision: $r) { agentName version label digest revision outcome agent { name latestRelease { version digest } } }
}`;
const AGENT = `query ($n: String!) { agent(name: $n) {
  name latestSince latestRelease { version label digest revision recordedAt } releases { totalCount edges { node { version label digest revision } } }
  standings { current stale unrecorded archived none } evaluationsCounted evaluationsLeftOut pooledPassed pooledScored pooledPassRate } }`;
const STANDING = `query ($e: ID!) { evaluation(id: $e) { standing headlineRun { id number status release { digest revision label } } } }`;
const D_OLD = "0123456789ab";
const D_NEW = "ba9876543210";

export function agentReleaseCases(options: { open?: () => Promise<{ readUrl?: string; store?: EventStore; close?: () => Promise<void> }> } = {}): void {
  let p: Platform;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const opened = (await options.open?.()) ?? {};
    close = opened.close;
    p = await startPlatform({ readUrl: opened.readUrl, store: opened.store });
  }, 60_000);
  afterAll(async () => {
    await p?.close();
    await close?.();
  });

  const record = (vars: Record<string, unknown>, key = p.keys.acmeWrite) => p.gql(key, RECORD, vars);
  const agent = async (name: string, key = p.keys.acmeRead) => (await p.gql(key, AGENT, { n: name })).body;
  const eventCount = async () => (await p.store.readAll()).length;
  const standing = async (evaluationId: string) => (await p.gql(p.keys.acmeRead, STANDING, { e: evaluationId })).body.data.evaluation;

  async function evaluation(agentName: string, name: string, key = p.keys.acmeWrite): Promise<string> {
    const created = await p.gql(key, `mutation ($a: String, $n: String) { createEvaluation(input: { agent: $a, name: $n, scenariosText: "Where is my order?\\nHello there", compareModels: ["gpt-5-mini"] }) { evaluationId } }`, { a: agentName, n: name });
    expect(created.body.errors).toBeUndefined();
    return created.body.data.createEvaluation.evaluationId;
  }

  /** An engine run, followed until it ends; its id. */
  async function finishedRun(evaluationId: string, release?: Record<string, unknown>): Promise<string> {
    const started = await p.gql(p.keys.acmeWrite, `mutation ($e: ID!, $r: ReleaseInput) { startRun(evaluationId: $e, release: $r) { runId run { release { digest revision label } } } }`, { e: evaluationId, r: release ?? null });
    expect(started.body.errors).toBeUndefined();
    const runId = started.body.data.startRun.runId;
    await collect(p.wsClient(p.keys.acmeRead), `subscription ($r: ID!) { runProgress(runId: $r) { status } }`, { r: runId });
    return runId;
  }

  /** An imported run whose pairs are passed or failed as given, with the release the report names. */
  async function importedRun(evaluationId: string, runId: string, statuses: string[], release: unknown = null): Promise<string> {
    const results = statuses.map((status, i) => ({ scenario_key: `s${i}`, label: "gpt-5-mini", status, score: status === "passed" ? 1 : 0 }));
    const report = { models: { "gpt-5-mini": { provider: "openai", model: "gpt-5-mini" } }, results, ...(release ? { release } : {}) };
    // A report is filed under its own agent (reference-platform §1 #30): the evaluation's.
    const evaluation = await p.gql(p.keys.acmeRead, `query ($e: ID!) { evaluation(id: $e) { agent } }`, { e: evaluationId });
    const envelope = { version: 1, run_id: runId, source: "ci", agent_name: evaluation.body.data.evaluation.agent, suite: "s", report };
    const imported = await p.gql(p.keys.acmeWrite, `mutation ($e: ID!, $x: JSON!) { importReport(evaluationId: $e, envelope: $x) { runId } }`, { e: evaluationId, x: envelope });
    expect(imported.body.errors).toBeUndefined();
    return imported.body.data.importReport.runId;
  }

  describe("recordAgentRelease", () => {
    const manifest = { provider: "openai", model: "gpt-5-mini", options: { temperature: 0, api_key: "sk-live-123" }, tools: [{ name: "lookup_order", token: "t0ken" }] };
    const canonical = '{"model":"gpt-5-mini","options":{"temperature":0},"provider":"openai","tools":[{"name":"lookup_order"}]}';
    const digest = createHash("sha256").update(canonical, "utf8").digest("hex").slice(0, 12);

    it("digests a manifest without its secrets and keeps none of it, cuts v1, v2, goes back to v1, and answers the same digest again without writing", async () => {
      const first = await record({ a: "Manifested", m: manifest, r: "a1b2c3d" });
      expect(first.body).toEqual({ data: { recordAgentRelease: {
        agentName: "Manifested", version: 1, label: "v1", digest, revision: "a1b2c3d", outcome: "NEW", agent: { name: "Manifested", latestRelease: { version: 1, digest } },
      } } });
      // Only the digest is kept: nothing of the manifest is in the log, let alone its secrets.
      const log = JSON.stringify((await p.store.readAll()).map((e) => e.data));
      expect(log).not.toMatch(/sk-live-123|t0ken/);
      expect(JSON.stringify((await p.store.readAll()).filter((e) => e.type === "AgentReleaseRecorded").map((e) => e.data))).not.toMatch(/lookup_order|gpt-5-mini/);
      // ...and no field serves one.
      const asked = await p.gql(p.keys.acmeRead, `{ agent(name: "Manifested") { latestRelease { manifest } } }`);
      expect(asked.body.errors[0].message).toMatch(/Cannot query field "manifest" on type "AgentRelease"/);

      // The same manifest, keys in another order and other secrets: the same release, nothing written.
      const events = await eventCount();
      const reordered = { tools: [{ token: "other", name: "lookup_order" }], options: { api_key: "sk-other", temperature: 0 }, model: "gpt-5-mini", provider: "openai" };
      const same = await record({ a: "Manifested", m: reordered });
      expect(same.body.data.recordAgentRelease).toMatchObject({ version: 1, outcome: "UNCHANGED", revision: "a1b2c3d" });
      expect(await record({ a: "Manifested", d: digest })).toMatchObject({ body: { data: { recordAgentRelease: { version: 1, outcome: "UNCHANGED" } } } });
      expect(await eventCount()).toBe(events);

      expect((await record({ a: "Manifested", d: D_NEW, r: "e4f5" })).body.data.recordAgentRelease).toMatchObject({ version: 2, label: "v2", outcome: "NEW" });
      const back = await record({ a: "Manifested", m: manifest, r: "later" });
      expect(back.body.data.recordAgentRelease).toMatchObject({ version: 1, label: "v1", digest, revision: "a1b2c3d", outcome: "RETURNED", agent: { latestRelease: { version: 1 } } });
      const after = (await agent("Manifested")).data.agent;
      // Newest version first.
      expect(after.releases.edges.map(({ node }: { node: { version: number; digest: string } }) => [node.version, node.digest])).toEqual([[2, D_NEW], [1, digest]]);
      expect(after.releases.totalCount).toBe(2);
      expect(after.latestRelease).toMatchObject({ version: 1, label: "v1", revision: "a1b2c3d" });
    });

    it("keeps credentials held in values (header and env pairs, URLs, arguments) out of the log and every answer; rotating them records nothing", async () => {
      const leaky = (secret: string) => ({
        model: "gpt-5-mini",
        mcp_servers: [{
          url: `https://mcp.example/x?api_key=${secret}-q`,
          headers: [{ name: "Authorization", value: `Bearer ${secret}-h` }, { name: "X-Api-Key", value: `${secret}-x` }],
          env: [{ name: "OPENAI_API_KEY", value: `${secret}-e` }],
          args: ["--api-key", `${secret}-a`],
        }],
        options: { openai_key: `${secret}-k`, basic_auth: `user:${secret}-b`, auth_header: `Bearer ${secret}-ah` },
      });
      const first = await record({ a: "Leaky", m: leaky("sk-live-AAAA") });
      expect(first.body.data.recordAgentRelease).toMatchObject({ version: 1, outcome: "NEW" });
      expect(JSON.stringify((await p.store.readAll()).map((e) => [e.data, e.metadata]))).not.toContain("sk-live-AAAA");
      expect(JSON.stringify(await agent("Leaky"))).not.toContain("sk-live-AAAA");
      const events = await eventCount();
      const rotated = await record({ a: "Leaky", m: leaky("sk-live-BBBB") });
      expect(rotated.body.data.recordAgentRelease).toMatchObject({ version: 1, outcome: "UNCHANGED", digest: first.body.data.recordAgentRelease.digest });
      expect(await eventCount()).toBe(events);
    });

    it("refuses bad input naming the field, and writes nothing", async () => {
      const events = await eventCount();
      const cases: [Record<string, unknown>, string, string][] = [
        [{ a: "Refused", d: "0123456789AB" }, "digest", "must be 12 lowercase hex characters"],
        [{ a: "Refused", d: "sha256:abc" }, "digest", "must be 12 lowercase hex characters"],
        [{ a: "Refused" }, "digest", "give a digest or a manifest"],
        [{ a: "Refused", d: D_OLD, m: { model: "m" } }, "manifest", "give a digest or a manifest, not both"],
        [{ a: "Refused", m: ["model"] }, "manifest", "must be a JSON object"],
        [{ a: "Refused", m: { instructions: "x".repeat(70_000) } }, "manifest", "must be at most 65536 bytes as JSON"],
        [{ a: "Refused", m: JSON.parse('{"model":"m","options":{"__proto__":{"temperature":1}}}') }, "manifest", "manifest.options.__proto__: must not be a key"],
        [{ a: "Refused", d: D_OLD, r: "r".repeat(201) }, "revision", "at most 200 characters"],
        [{ a: " ", d: D_OLD }, "agent", "must not be blank"],
        [{ a: "A".repeat(256), d: D_OLD }, "agent", "at most 255 characters"],
      ];
      for (const [vars, field, rule] of cases) {
        const answer = await record(vars);
        expect([field, answer.body.errors?.[0]?.extensions]).toEqual([field, { code: "VALIDATION", field }]);
        expect(answer.body.errors[0].message).toContain(rule);
      }
      const forbidden = await record({ a: "Refused", d: D_OLD }, p.keys.acmeRead);
      expect(forbidden.body.errors[0].extensions.code).toBe("FORBIDDEN");
      expect(await eventCount()).toBe(events);
      expect((await agent("Refused")).errors[0]).toMatchObject({ message: "agent Refused not found", extensions: { code: "NOT_FOUND", field: "name" } });
    });
  });

  describe("pinning and standing", () => {
    it("goes NONE -> UNRECORDED -> CURRENT -> STALE -> CURRENT -> ARCHIVED as runs pin releases and releases are recorded", async () => {
      const e = await evaluation("Pinned", "Standing");
      expect(await standing(e)).toEqual({ standing: "NONE", headlineRun: null });
      const r1 = await finishedRun(e);
      expect(await standing(e)).toEqual({ standing: "UNRECORDED", headlineRun: { id: r1, number: 1, status: "COMPLETED", release: null } });
      await record({ a: "Pinned", d: D_OLD, r: "rev-1" });
      expect((await standing(e)).standing).toBe("UNRECORDED");
      const r2 = await finishedRun(e);
      expect(await standing(e)).toEqual({ standing: "CURRENT", headlineRun: { id: r2, number: 2, status: "COMPLETED", release: { digest: D_OLD, revision: "rev-1", label: "v1" } } });
      await record({ a: "Pinned", d: D_NEW });
      expect((await standing(e)).standing).toBe("STALE");
      const r3 = await finishedRun(e);
      expect(await standing(e)).toEqual({ standing: "CURRENT", headlineRun: { id: r3, number: 3, status: "COMPLETED", release: { digest: D_NEW, revision: null, label: "v2" } } });
      const archived = await p.gql(p.keys.acmeWrite, `mutation ($e: ID!) { archiveEvaluation(evaluationId: $e, archived: true) { evaluation { standing } } }`, { e });
      expect(archived.body.data.archiveEvaluation.evaluation.standing).toBe("ARCHIVED");
      const listed = await p.gql(p.keys.acmeRead, `{ evaluations(archived: true) { edges { node { id standing } } } }`);
      expect(listed.body.data.evaluations.edges.map((edge: { node: unknown }) => edge.node)).toContainEqual({ id: e, standing: "ARCHIVED" });
    });

    it("startRun pins the latest release at start; an explicit release is kept", async () => {
      const e = await evaluation("Explicit", "Explicit");
      await record({ a: "Explicit", d: D_OLD, r: "r1" });
      const pinned = await p.gql(p.keys.acmeWrite, `mutation ($e: ID!) { startRun(evaluationId: $e, external: true) { run { release { digest revision label } } } }`, { e });
      expect(pinned.body.data.startRun.run.release).toEqual({ digest: D_OLD, revision: "r1", label: "v1" });
      const given = { digest: "host-build-42", revision: "abc", label: "2.4.0" };
      const kept = await p.gql(p.keys.acmeWrite, `mutation ($e: ID!, $r: ReleaseInput) { startRun(evaluationId: $e, external: true, release: $r) { runId run { release { digest revision label } } } }`, { e, r: given });
      expect(kept.body.data.startRun.run.release).toEqual(given);
      const runId = kept.body.data.startRun.runId;
      const read = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { release { digest revision label } } }`, { r: runId });
      expect(read.body.data.run.release).toEqual(given);
      const events = await eventCount();
      const blank = await p.gql(p.keys.acmeWrite, `mutation ($e: ID!) { startRun(evaluationId: $e, release: { digest: " " }) { runId } }`, { e });
      expect(blank.body.errors[0].extensions).toEqual({ code: "VALIDATION", field: "release.digest" });
      expect(await eventCount()).toBe(events);
    });
  });

  it("pins a catalog set's run to its product agent's latest release, which its report names", async () => {
    await record({ a: "SupportAgent", d: D_OLD, r: "cat-1" });
    const { evaluationId, runId } = await finishedSampleRun(p, ["gpt-5-mini"]);
    const read = await p.gql(p.keys.acmeRead, `query ($r: ID!) { run(id: $r) { status release { digest revision label } } }`, { r: runId });
    expect(read.body.data.run).toEqual({ status: "COMPLETED", release: { digest: D_OLD, revision: "cat-1", label: "v1" } });
    const markdown = await (await p.get(p.keys.acmeRead, `/api/evaluations/${evaluationId}/runs/${runId}/report.md`)).text();
    expect(markdown).toContain("Release: v1");
    expect((await standing(evaluationId)).standing).toBe("CURRENT");
  });

  describe("pooled pass rate", () => {
    it("pools the headline runs of CURRENT and UNRECORDED evaluations only", async () => {
      const [current, unrecorded, stale, archived] = await Promise.all(["current", "unrecorded", "stale", "archived"].map((n) => evaluation("Pooled", n)));
      await evaluation("Pooled", "none");
      await record({ a: "Pooled", d: D_NEW });
      await importedRun(current, "pooled-c1", ["failed", "failed", "failed", "failed"], { digest: D_NEW });
      await importedRun(current, "pooled-c2", ["passed", "passed", "passed", "failed"], { digest: D_NEW, label: "v1" }); // the headline: 3 of 4
      await importedRun(unrecorded, "pooled-u1", ["passed", "failed"]); // 1 of 2
      await importedRun(stale, "pooled-s1", ["passed", "passed"], { digest: D_OLD });
      await importedRun(archived, "pooled-a1", ["passed", "passed"], { digest: D_NEW });
      await p.gql(p.keys.acmeWrite, `mutation ($e: ID!) { archiveEvaluation(evaluationId: $e, archived: true) { evaluationId } }`, { e: archived });
      expect((await agent("Pooled")).data.agent).toMatchObject({
        standings: { current: 1, unrecorded: 1, stale: 1, archived: 1, none: 1 },
        evaluationsCounted: 2, evaluationsLeftOut: 3, pooledPassed: 4, pooledScored: 6, pooledPassRate: 66.7,
      });
      const listed = await p.gql(p.keys.acmeRead, `{ agents { edges { node { name pooledPassRate } } } }`);
      expect(listed.body.data.agents.edges).toContainEqual({ node: { name: "Pooled", pooledPassRate: 66.7 } });
      expect((await standing(stale)).standing).toBe("STALE");
    });
  });

  describe("tenants", () => {
    it("keeps another tenant's agent of the same name apart: its releases, standings and pooled rate", async () => {
      const e = await evaluation("Shared", "Shared");
      await record({ a: "Shared", d: D_OLD });
      await importedRun(e, "shared-1", ["passed"], { digest: D_OLD });
      // globex records a newer release of its own "Shared": acme's evaluation stays CURRENT.
      const theirs = await record({ a: "Shared", d: D_NEW }, p.keys.globexWrite);
      expect(theirs.body.data.recordAgentRelease).toMatchObject({ version: 1, outcome: "NEW" });
      expect((await standing(e)).standing).toBe("CURRENT");
      expect((await agent("Shared")).data.agent).toMatchObject({ latestRelease: { version: 1, digest: D_OLD }, evaluationsCounted: 1, pooledPassRate: 100 });
      const globex = (await p.gql(p.keys.globexWrite, AGENT, { n: "Shared" })).body.data.agent;
      expect(globex).toMatchObject({ latestRelease: { version: 1, digest: D_NEW }, releases: { totalCount: 1, edges: [{ node: { version: 1, digest: D_NEW } }] }, evaluationsCounted: 0, evaluationsLeftOut: 0, pooledPassRate: null });
      expect((await p.gql(p.keys.globexWrite, `{ agents { totalCount edges { node { name } } } }`)).body.data.agents).toEqual({ totalCount: 1, edges: [{ node: { name: "Shared" } }] });
      expect((await p.gql(p.keys.globexWrite, AGENT, { n: "Pooled" })).body.errors[0].extensions).toEqual({ code: "NOT_FOUND", field: "name" });
    });
  });
}
