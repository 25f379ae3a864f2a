// A run pins the release it scored (reference-platform §1 #39, §7 item 15): StartRun without a
// release pins the agent's latest recorded one, read from the agent's stream; one named is kept.
import { beforeEach, describe, expect, it } from "vitest";
import { createEvaluation } from "../createEvaluation.js";
import { startRun } from "../twoStreamCommands.js";
import { InMemoryEventStore } from "../testing/inMemoryEventStore.js";
import { fixedClock, sequentialIds } from "../testing/fixed.js";
import { GPT, scenario } from "../testing/fixtures.js";
import { recordAgentRelease } from "./recordAgentRelease.js";
import { given } from "../testing/givenWhenThen.js";
import { created, record, replaced } from "../testing/fixtures.js";
import { evaluationAggregate } from "../evaluation/evaluationAggregate.js";
import { runAggregate } from "../run/runAggregate.js";
import { agentAggregate } from "./agentAggregate.js";

let store: InMemoryEventStore;
const deps = (tenant = "acme") => ({ clock: fixedClock(), ids: sequentialIds(`${tenant}-`), context: { tenant, actor: "user-1" } });
const D1 = "0123456789ab";
const D2 = "ba9876543210";

async function evaluation(id: string, tenant = "acme", agent = "SupportAgent") {
  await createEvaluation(store, { evaluation_id: id, tenant, agent, name: `Support ${id}`, scenarios: [scenario("a")] }, deps(tenant));
}
const release = (agent: string, digest: string, revision: string | null = null, tenant = "acme") =>
  recordAgentRelease(store, { tenant, agent, digest, revision }, deps(tenant));
const start = async (runId: string, evaluationId = "e1", extra: Record<string, unknown> = {}, tenant = "acme") =>
  (await startRun(store, { run_id: runId, evaluation_id: evaluationId, models: [GPT], ...extra }, deps(tenant))).run.domainEvents[0];
const pinned = async (runId: string, evaluationId = "e1", extra: Record<string, unknown> = {}, tenant = "acme") => {
  const event = await start(runId, evaluationId, extra, tenant);
  return event.type === "RunStarted" ? event.data.release : "not started";
};

beforeEach(async () => {
  store = new InMemoryEventStore();
  await evaluation("e1");
});

describe("StartRun pins a release", () => {
  it("pins nothing while the agent has no recorded release", async () => {
    expect(await pinned("r1")).toBeNull();
  });

  it("pins the agent's latest release as { digest, revision, label: v<N> }, at the time it starts", async () => {
    await release("SupportAgent", D1, "a1b2c3d");
    expect(await pinned("r1")).toEqual({ digest: D1, revision: "a1b2c3d", label: "v1" });
    await release("SupportAgent", D2);
    expect(await pinned("r2")).toEqual({ digest: D2, revision: null, label: "v2" });
    // Back to v1's digest: the next run pins v1 again.
    await release("SupportAgent", D1, "ignored");
    expect(await pinned("r3")).toEqual({ digest: D1, revision: "a1b2c3d", label: "v1" });
  });

  it("keeps an explicit release as given, whatever the agent's latest", async () => {
    await release("SupportAgent", D1);
    const explicit = { digest: "sha256:9f2c", revision: "a1b2c3d", label: "support-agent v2.4.0" };
    expect(await pinned("r1", "e1", { release: explicit })).toEqual(explicit);
  });

  it("refuses a blank explicit digest, naming it, and writes nothing", async () => {
    const before = store.log.length;
    await expect(start("r1", "e1", { release: { digest: " " } })).rejects.toMatchObject({ code: "validation", field: "release.digest" });
    expect(store.log.length).toBe(before);
  });

  it("pins the evaluation's own agent's release: not another agent's, nor another tenant's agent of the same name", async () => {
    await evaluation("e2", "acme", "BillingAgent");
    await evaluation("g1", "globex", "SupportAgent");
    await release("SupportAgent", D1);
    await release("BillingAgent", D2);
    expect(await pinned("r1", "e1")).toMatchObject({ digest: D1 });
    expect(await pinned("r2", "e2")).toMatchObject({ digest: D2 });
    expect(await pinned("g-r1", "g1", {}, "globex")).toBeNull();
  });
});

describe("the run decider, given the agent's state", () => {
  const scheduled = given(evaluationAggregate, [created("e1"), replaced([record("a", 0)]), { type: "RunScheduled", data: { run_id: "r1", number: 1, origin: "engine" } }]).state;
  const agent = given(agentAggregate, [
    { type: "AgentReleaseRecorded", data: { tenant: "acme", agent: "SupportAgent", version: 1, digest: D1, revision: "r1", returned: false } },
    { type: "AgentReleaseRecorded", data: { tenant: "acme", agent: "SupportAgent", version: 2, digest: D2, revision: null, returned: false } },
  ]).state;
  const command = { type: "StartRun", run_id: "r1", evaluation_id: "e1", models: [GPT] };

  it("pins the latest version when the start names no release", () => {
    const [event] = given(runAggregate, [], { evaluation: scheduled, agent }).when(command);
    expect(event.data).toMatchObject({ release: { digest: D2, revision: null, label: "v2" } });
  });

  it("keeps the named release, and pins nothing without an agent state", () => {
    const [named] = given(runAggregate, [], { evaluation: scheduled, agent }).when({ ...command, release: { digest: D1, label: "mine" } });
    expect(named.data).toMatchObject({ release: { digest: D1, label: "mine" } });
    const [none] = given(runAggregate, [], { evaluation: scheduled }).when(command);
    expect(none.data).toMatchObject({ release: null });
  });
});
