import { beforeEach, describe, expect, it } from "vitest";
import type { EventInput } from "../../events/registry.js";
import { agentStream } from "../../events/streams.js";
import { toEventsToAppend } from "../../events/toAppend.js";
import { CONTENDED_RETRIES } from "../contention.js";
import { given } from "../testing/givenWhenThen.js";
import { InMemoryEventStore } from "../testing/inMemoryEventStore.js";
import { fixedClock, sequentialIds } from "../testing/fixed.js";
import { agentAggregate, latestRelease } from "./agentAggregate.js";
import { recordAgentRelease } from "./recordAgentRelease.js";
import { manifestDigest, MANIFEST_MAX_BYTES } from "./releaseManifest.js";

const D1 = "0123456789ab";
const D2 = "ba9876543210";
const D3 = "abcdefabcdef";
const record = (extra: Record<string, unknown>) => ({ type: "RecordAgentRelease", tenant: "acme", agent: "SupportAgent", ...extra });
const recorded = (version: number, digest: string, revision: string | null = null, returned = false): EventInput<"AgentReleaseRecorded"> => ({
  type: "AgentReleaseRecorded",
  data: { tenant: "acme", agent: "SupportAgent", version, digest, revision, returned },
});

describe("RecordAgentRelease", () => {
  it("cuts v1 for the agent's first digest", () => {
    expect(given(agentAggregate, []).when(record({ digest: D1, revision: "a1b2c3d" }))).toEqual([recorded(1, D1, "a1b2c3d")]);
  });

  it("records nothing when the digest is already the latest, whatever the revision", () => {
    expect(given(agentAggregate, [recorded(1, D1, "a1b2c3d")]).when(record({ digest: D1 }))).toEqual([]);
    expect(given(agentAggregate, [recorded(1, D1, "a1b2c3d")]).when(record({ digest: D1, revision: "other" }))).toEqual([]);
  });

  it("cuts the next version for a new digest, and goes back to an earlier version under its own number", () => {
    const history = [recorded(1, D1, "r1"), recorded(2, D2, "r2")];
    expect(given(agentAggregate, [recorded(1, D1, "r1")]).when(record({ digest: D2, revision: "r2" }))).toEqual([recorded(2, D2, "r2")]);
    // Back to v1's digest: v1 again (its own revision), never v3.
    const back = given(agentAggregate, history).when(record({ digest: D1, revision: "r9" }));
    expect(back).toEqual([recorded(1, D1, "r1", true)]);
    const state = given(agentAggregate, [...history, ...back]).state;
    expect(latestRelease(state)).toEqual({ digest: D1, revision: "r1", label: "v1" });
    // ...then a digest never seen is v3, and v2's digest again is v2.
    expect(given(agentAggregate, [...history, ...back]).when(record({ digest: D3 }))).toEqual([recorded(3, D3)]);
    expect(given(agentAggregate, [...history, ...back]).when(record({ digest: D2 }))).toEqual([recorded(2, D2, "r2", true)]);
  });

  it("computes the digest from a manifest and records only the digest, never the manifest", () => {
    const manifest = { model: "gpt-5-mini", options: { api_key: "sk-live", temperature: 0 }, tools: [{ name: "lookup", token: "t0ken" }], instructions: "Help with orders." };
    const [event] = given(agentAggregate, []).when(record({ manifest, revision: "abc" }));
    expect(event).toEqual({
      type: "AgentReleaseRecorded",
      data: { tenant: "acme", agent: "SupportAgent", version: 1, digest: manifestDigest(manifest), revision: "abc", returned: false },
    });
    expect(JSON.stringify(event)).not.toMatch(/sk-live|t0ken|gpt-5-mini|Help with orders/);
    // The same manifest in another order, secrets changed: the same release, nothing recorded.
    const again = { tools: [{ token: "other", name: "lookup" }], options: { temperature: 0, api_key: "sk-other" }, model: "gpt-5-mini", instructions: "Help with orders." };
    expect(given(agentAggregate, [event]).when(record({ manifest: again }))).toEqual([]);
  });

  it("latestRelease is null before any release", () => {
    expect(latestRelease(given(agentAggregate, []).state)).toBeNull();
  });

  it.each([
    [{ digest: "0123456789AB" }, "digest", "must be 12 lowercase hex characters"],
    [{ digest: "0123456789abc" }, "digest", "must be 12 lowercase hex characters"],
    [{ digest: "sha256:01234" }, "digest", "must be 12 lowercase hex characters"],
    [{}, "digest", "give a digest or a manifest"],
    [{ digest: D1, manifest: { model: "m" } }, "manifest", "give a digest or a manifest, not both"],
    [{ manifest: ["model"] }, "manifest", "must be a JSON object"],
    [{ manifest: "model: m" }, "manifest", "must be a JSON object"],
    [{ manifest: { instructions: "x".repeat(MANIFEST_MAX_BYTES) } }, "manifest", `must be at most ${MANIFEST_MAX_BYTES} bytes`],
    [{ manifest: { instructions: "nul \u0000" } }, "manifest", "manifest.instructions: must not contain a NUL"],
    [{ digest: D1, revision: "  " }, "revision", "must not be blank"],
    [{ digest: D1, revision: "r".repeat(201) }, "revision", "at most 200 characters"],
    [{ digest: D1, agent: "A".repeat(256) }, "agent", "at most 255 characters"],
    [{ digest: D1, agent: " " }, "agent", "must not be blank"],
    [{ digest: D1, tenant: "a b" }, "tenant", "must be 1-100 ASCII letters"],
  ])("refuses %j naming %s", (input, field, rule) => {
    const decide = () => given(agentAggregate, []).when(record(input));
    expect(decide).toThrow(rule);
    try {
      decide();
    } catch (error) {
      expect((error as { field?: string }).field).toBe(field);
    }
  });
});

describe("RecordAgentRelease refuses what JSON would not carry as given", () => {
  it.each([
    ["a __proto__ key", () => JSON.parse('{"model":"m","__proto__":{"instructions":"Be terse."}}'), "manifest.__proto__: must not be a key"],
    ["a __proto__ key deeper", () => JSON.parse('{"tools":[{"name":"t","__proto__":1}]}'), "manifest.tools[0].__proto__: must not be a key"],
    ["a whole number past 2^53 - 1", () => JSON.parse('{"options":{"seed":9007199254740993}}'), "manifest.options.seed: must be a whole number from -9007199254740991 to 9007199254740991"],
    ["a negative one", () => ({ seed: -(2 ** 60) }), "manifest.seed: must be a whole number from"],
    ["1e400", () => JSON.parse('{"t":1e400}'), "manifest.t: must be a finite number (got Infinity)"],
    ["NaN", () => ({ t: NaN }), "manifest.t: must be a finite number (got NaN)"],
    ["a BigInt", () => ({ seed: 10n }), "manifest.seed: must be JSON: a BigInt (write it as text) is not"],
    ["a function", () => ({ tools: [{ run: () => 1 }] }), "manifest.tools[0].run: must be JSON: a function is not"],
    ["undefined", () => ({ model: undefined }), "manifest.model: must be JSON: undefined is not"],
    ["a symbol", () => ({ s: Symbol("s") }), "manifest.s: must be JSON: a symbol is not"],
    ["an array hole", () => ({ stop: ["a", , "b"] }), "manifest.stop[1]: must be JSON: an array hole is not"], // eslint-disable-line no-sparse-arrays
    ["a Date", () => ({ at: new Date(0) }), "manifest.at: must be JSON: only plain objects"],
  ])("%s, as a VALIDATION error naming manifest and where", async (_what, manifest, rule) => {
    let thrown: unknown;
    try {
      given(agentAggregate, []).when(record({ manifest: manifest() }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "validation", field: "manifest" });
    expect((thrown as Error).message).toContain(rule);
  });

  it("takes the numbers JSON carries exactly", () => {
    for (const seed of [2 ** 53 - 1, -(2 ** 53 - 1), 0.1, 1e-300, 1.5]) expect(given(agentAggregate, []).when(record({ manifest: { seed } }))).toHaveLength(1);
  });
});

describe("recordAgentRelease on a store", () => {
  let store: InMemoryEventStore;
  const deps = () => ({ clock: fixedClock(), ids: sequentialIds(), context: { tenant: "acme", actor: "user-1" } });
  const stream = agentStream("acme", "SupportAgent");
  beforeEach(() => {
    store = new InMemoryEventStore();
  });

  it("answers what it came to: new, unchanged (nothing appended), returned", async () => {
    const first = await recordAgentRelease(store, { tenant: "acme", agent: " SupportAgent ", digest: D1, revision: "r1" }, deps());
    expect([first.outcome, first.release, first.handled.streamId]).toEqual(["new", { version: 1, digest: D1, revision: "r1" }, stream]);
    const calls = store.appendCalls;
    const same = await recordAgentRelease(store, { tenant: "acme", agent: "SupportAgent", digest: D1 }, deps());
    expect([same.outcome, same.release, same.handled.events]).toEqual(["unchanged", { version: 1, digest: D1, revision: "r1" }, []]);
    expect(store.appendCalls).toBe(calls);
    expect((await recordAgentRelease(store, { tenant: "acme", agent: "SupportAgent", digest: D2 }, deps())).release.version).toBe(2);
    const back = await recordAgentRelease(store, { tenant: "acme", agent: "SupportAgent", digest: D1 }, deps());
    expect([back.outcome, back.release]).toEqual(["returned", { version: 1, digest: D1, revision: "r1" }]);
    expect((await store.readStream(stream)).map((e) => [e.type, (e.data as { version: number }).version])).toEqual([
      ["AgentReleaseRecorded", 1], ["AgentReleaseRecorded", 2], ["AgentReleaseRecorded", 1],
    ]);
  });

  it("keeps tenants apart: the same agent name in another tenant is another stream, starting at v1", async () => {
    await recordAgentRelease(store, { tenant: "acme", agent: "SupportAgent", digest: D1 }, deps());
    await recordAgentRelease(store, { tenant: "acme", agent: "SupportAgent", digest: D2 }, deps());
    const theirs = await recordAgentRelease(store, { tenant: "globex", agent: "SupportAgent", digest: D2 }, { ...deps(), context: { tenant: "globex", actor: "g" } });
    expect([theirs.outcome, theirs.release.version, theirs.handled.streamId]).toEqual(["new", 1, agentStream("globex", "SupportAgent")]);
    expect(agentStream("globex", "SupportAgent")).not.toBe(stream);
  });

  it("decides again after pauses, past the default 3 retries, while other releases keep landing (as StartRun does)", async () => {
    const racer = (version: number) => () =>
      store.appendNow(stream, toEventsToAppend([recorded(version, `${version}`.padStart(12, "a"))], { tenant: "acme", actor: "racer" }, { clock: fixedClock(), ids: sequentialIds("racer-") }));
    for (let version = 1; version <= 6; version++) store.interleave(racer(version));
    const pauses: number[] = [];
    const recordedNow = await recordAgentRelease(store, { tenant: "acme", agent: "SupportAgent", digest: D1 }, { ...deps(), pause: async (lost) => void pauses.push(lost) });
    expect([recordedNow.outcome, recordedNow.release.version, recordedNow.handled.attempts]).toEqual(["new", 7, 7]);
    expect(pauses).toEqual([1, 2, 3, 4, 5, 6]);
    // Without a pause of its own it takes the contended ones, up to CONTENDED_RETRIES lost races.
    for (let version = 8; version <= 8 + CONTENDED_RETRIES; version++) store.interleave(racer(version));
    await expect(recordAgentRelease(store, { tenant: "acme", agent: "SupportAgent", digest: D2 }, deps())).rejects.toThrow(
      `RecordAgentRelease on ${stream} lost a concurrent write after ${CONTENDED_RETRIES + 1} attempt(s)`,
    );
  });

  it("keeps the agent's stream small whatever the manifests: each release is its digest, not its 60 KB manifest (StartRun reads the stream)", async () => {
    for (let i = 0; i < 3; i++) await recordAgentRelease(store, { tenant: "acme", agent: "SupportAgent", manifest: { instructions: `${i} ${"x".repeat(60_000)}` } }, deps());
    const events = await store.readStream(stream);
    expect(events).toHaveLength(3);
    for (const event of events) expect(JSON.stringify(event.data).length).toBeLessThan(200);
  });

  it("writes nothing for a refused input", async () => {
    for (const input of [{ digest: "nothex" }, { manifest: [1] }, {}, { digest: D1, manifest: {} }]) {
      await expect(recordAgentRelease(store, { tenant: "acme", agent: "SupportAgent", ...input }, deps())).rejects.toMatchObject({ code: "validation" });
    }
    expect(store.appendCalls).toBe(0);
    expect(store.log).toEqual([]);
  });
});
