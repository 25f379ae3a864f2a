// A page of agents and their releases is read with two statements whatever it holds: the agents
// with their latest releases joined, then every agent's page of releases at once
// (agentReleaseLoader.ts). It was one query for the list, one per agent for its latest release
// and one per agent for its releases. Both lists are pages, bounded by `first` and priced by it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAgentRelease } from "@verdict/domain";
import { startPlatform, type Platform } from "./testing/harness.js";

const AGENTS = 30;
const D1 = "0123456789ab";
const D2 = "ba9876543210";

let p: Platform;
let queries: string[] = [];
/** The rebuild generation, read at most once a second whatever a request asks, is no read of its own. */
const notRebuildCheck = (query: string) => !/\bprojector_rebuilds\b/.test(query);

beforeAll(async () => {
  p = await startPlatform();
  const deps = { clock: { now: () => new Date() }, ids: { next: () => crypto.randomUUID() }, context: { tenant: "acme", actor: "test" } };
  for (let i = 0; i < AGENTS; i++) {
    for (const digest of [D1, D2]) await recordAgentRelease(p.store, { tenant: "acme", agent: `Agent${String(i).padStart(2, "0")}`, digest }, deps);
  }
  await p.projector.catchUp();
  // Every statement the read models run from here on.
  const database = p.read.sql;
  const open = database.sql.bind(database);
  database.sql = () => {
    const sql = open();
    return { ...sql, execute: (query: string, params?: unknown[]) => (queries.push(query.replace(/\s+/g, " ")), sql.execute(query, params)) } as typeof sql;
  };
}, 60_000);
afterAll(async () => {
  await p?.close();
});

describe("a page of agents with their releases", () => {
  it("is read with two statements, not one or two per agent", async () => {
    queries = [];
    const res = await p.gql(p.keys.acmeRead, `{ agents(first: ${AGENTS}) { totalCount edges { node { name latestRelease { version digest }
      releases(first: 1) { totalCount pageInfo { hasNextPage } edges { node { version digest } } } } } } }`);
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data.agents.edges.map((edge: { node: unknown }) => edge.node);
    expect(nodes).toHaveLength(AGENTS);
    expect(res.body.data.agents.totalCount).toBe(AGENTS);
    for (const node of nodes) {
      expect(node).toMatchObject({ latestRelease: { version: 2, digest: D2 }, releases: { totalCount: 2, pageInfo: { hasNextPage: true }, edges: [{ node: { version: 2, digest: D2 } }] } });
    }
    const read = queries.filter(notRebuildCheck);
    expect(read).toHaveLength(2);
    expect(read.every((q) => /\bagent_releases\b/.test(q))).toBe(true);
  });

  it("pages the releases of one agent after a cursor", async () => {
    const first = await p.gql(p.keys.acmeRead, `{ agent(name: "Agent07") { releases(first: 1) { pageInfo { endCursor } edges { node { version } } } } }`);
    const after = first.body.data.agent.releases.pageInfo.endCursor;
    const next = await p.gql(p.keys.acmeRead, `query ($a: String) { agent(name: "Agent07") { releases(first: 1, after: $a) { pageInfo { hasNextPage } edges { node { version } } } } }`, { a: after });
    expect(next.body.data.agent.releases).toEqual({ pageInfo: { hasNextPage: false }, edges: [{ node: { version: 1 } }] });
    const elsewhere = await p.gql(p.keys.acmeRead, `query ($a: String) { agent(name: "Agent08") { releases(after: $a) { totalCount } } }`, { a: after });
    expect(elsewhere.body.errors[0]).toMatchObject({ message: "after is not a cursor this list gave out", extensions: { code: "VALIDATION", field: "after" } });
  });

  it("refuses a page past 100, and aliases that multiply pages past the query's price", async () => {
    const big = await p.gql(p.keys.acmeRead, `{ agents(first: 101) { totalCount } }`);
    expect(big.body.errors[0]).toMatchObject({ message: "first must be a whole number from 0 to 100 (got 101)", extensions: { code: "VALIDATION" } });
    queries = [];
    const aliases = Array.from({ length: 227 }, (_, i) => `a${i}: agent(name: "Agent00") { releases { edges { node { version } } } }`).join(" ");
    const aliased = await p.gql(p.keys.acmeRead, `{ ${aliases} }`);
    expect(aliased.status).toBe(400);
    expect(aliased.body.errors[0].message).toMatch(/^query costs \d+; the limit is 5000$/);
    expect(queries.filter(notRebuildCheck)).toEqual([]);
  });
});
