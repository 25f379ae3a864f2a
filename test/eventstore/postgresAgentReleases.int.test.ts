// Many releases of one agent recorded at once, on PostgreSQL: every RecordAgentRelease appends to
// the agent's own stream with the version it read, so concurrent ones race there. With three
// immediate retries, some of 10 concurrent new digests were refused; decided again after
// jittered pauses (contention.ts), each gets its own version and none is refused.
import { randomUUID } from "node:crypto";
import { agentStream, readWholeStream, recordAgentRelease } from "@verdict/domain";
import { describe, expect, it } from "vitest";
import { usePostgresEventStore } from "./postgresEventStoreFixture.js";

const postgres = usePostgresEventStore();

const options = { clock: { now: () => new Date() }, ids: { next: () => randomUUID() }, context: { tenant: "acme", actor: "deploy" } };
const versionsOf = async (agent: string) => (await readWholeStream(postgres.store, agentStream("acme", agent))).map((e) => (e.data as { version: number }).version);

describe("releases of one agent recorded concurrently (PostgreSQL)", () => {
  it("10 different digests at once: all recorded, versions 1..10 without a gap or a repeat", async () => {
    const digests = Array.from({ length: 10 }, (_, i) => `${i}`.padStart(12, "a"));
    const settled = await Promise.allSettled(digests.map((digest) => recordAgentRelease(postgres.store, { tenant: "acme", agent: "Many", digest }, options)));
    expect(settled.flatMap((s) => (s.status === "rejected" ? [String((s.reason as Error).message)] : []))).toEqual([]);
    const answered = settled.map((s) => (s.status === "fulfilled" ? [s.value.outcome, s.value.release.version] : null));
    expect(answered.every((a) => a?.[0] === "new")).toBe(true);
    expect(answered.map((a) => a?.[1]).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(await versionsOf("Many")).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it("the same digest from 10 replicas at once: one NEW, nine UNCHANGED, one event", async () => {
    const settled = await Promise.all(Array.from({ length: 10 }, () => recordAgentRelease(postgres.store, { tenant: "acme", agent: "Same", digest: "0123456789ab" }, options)));
    expect(settled.map((s) => s.outcome).sort()).toEqual(["new", ...Array(9).fill("unchanged")]);
    expect(await versionsOf("Same")).toEqual([1]);
  });
});
