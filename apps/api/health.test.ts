// /healthz and /readyz against the started server, with real HTTP and no API key: what a load
// balancer or an orchestrator's probe calls. Before, the API had no route a probe could call
// without a tenant's key, and an unknown path answered express's HTML "Cannot GET".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventStore } from "@verdict/domain";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { PROJECTION_VERSION } from "@verdict/projector";
import { READINESS_DEADLINE_MS } from "./server/readiness.js";
import { CATALOG_YAML, startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
/** While set, p's event store never answers a stream's version (a database that hangs). */
let storeHangs = false;
let versionAsks = 0;

beforeAll(async () => {
  const store = createMemoryEventStore();
  const hanging: EventStore = {
    ...store,
    streamVersion(streamId) {
      versionAsks += 1;
      return storeHangs ? new Promise(() => undefined) : store.streamVersion(streamId);
    },
  };
  p = await startPlatform({ store: hanging });
  // Projected (mutations wait for the projector): the checkpoint, with its projection version, is stored.
  await p.gql(p.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML });
}, 60_000);
afterAll(() => p?.close());

async function probe(path: string, init?: RequestInit): Promise<{ status: number; body: unknown; cache: string | null }> {
  const res = await fetch(`${p.api.url}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: text === "" ? "" : JSON.parse(text), cache: res.headers.get("cache-control") };
}

describe("GET /healthz", () => {
  it("answers 200 ok without an API key, never kept by a proxy", async () => {
    expect(await probe("/healthz")).toEqual({ status: 200, body: { status: "ok" }, cache: "no-store" });
  });

  it("answers HEAD with the status and no body", async () => {
    expect(await probe("/healthz", { method: "HEAD" })).toMatchObject({ status: 200, body: "" });
  });

  it("refuses a query parameter as the other REST routes do", async () => {
    expect(await probe("/healthz?verbose=1")).toMatchObject({
      status: 400,
      body: { error: 'unknown query parameter "verbose": this route takes no query parameters', code: "VALIDATION", field: "verbose" },
    });
  });
});

describe("GET /readyz", () => {
  it("answers 200 ready without an API key when the event store and the read models answer", async () => {
    expect(await probe("/readyz")).toEqual({ status: 200, body: { status: "ready" }, cache: "no-store" });
    expect(await probe("/readyz", { method: "HEAD" })).toMatchObject({ status: 200, body: "" });
  });

  it("refuses a query parameter", async () => {
    expect(await probe("/readyz?full")).toMatchObject({ status: 400, body: { code: "VALIDATION", field: "full" } });
  });

  it("answers 503 naming read models of another projection version, and ready again once they are this build's", async () => {
    const setVersion = (version: number) => p.read.sql.sql().execute(`UPDATE projector_checkpoints SET projection_version = ${version}`);
    await setVersion(PROJECTION_VERSION - 1);
    expect(await p.read.sql.sql().execute("SELECT projection_version AS v FROM projector_checkpoints")).toEqual([{ v: PROJECTION_VERSION - 1 }]);
    try {
      expect(await probe("/readyz")).toMatchObject({
        status: 503,
        body: {
          status: "unready",
          reasons: [`read models: they were projected by projection version ${PROJECTION_VERSION - 1}; this build reads version ${PROJECTION_VERSION}: start this build's projector, which rebuilds them`],
        },
      });
    } finally {
      await setVersion(PROJECTION_VERSION);
    }
    expect((await probe("/readyz")).status).toBe(200);
  });

  it("names the API as what to upgrade when the read models are of a newer projection version", async () => {
    await p.read.sql.sql().execute(`UPDATE projector_checkpoints SET projection_version = ${PROJECTION_VERSION + 1}`);
    try {
      expect((await probe("/readyz")).body).toEqual({
        status: "unready",
        reasons: [`read models: they were projected by projection version ${PROJECTION_VERSION + 1}; this build reads version ${PROJECTION_VERSION}: upgrade this API to the projector's build`],
      });
    } finally {
      await p.read.sql.sql().execute(`UPDATE projector_checkpoints SET projection_version = ${PROJECTION_VERSION}`);
    }
  });

  it("answers 503 once the event store does not answer within the deadline, asking it once for probes at once", async () => {
    storeHangs = true;
    versionAsks = 0;
    try {
      const started = Date.now();
      const [first, second] = await Promise.all([probe("/readyz"), probe("/readyz")]);
      expect(Date.now() - started).toBeLessThan(READINESS_DEADLINE_MS + 1_500);
      for (const answer of [first, second]) {
        expect(answer).toMatchObject({ status: 503, body: { status: "unready", reasons: [`event store: its database did not answer within ${READINESS_DEADLINE_MS} ms`] } });
      }
      // The hung query is not asked again while it is in flight: probes do not pile queries up.
      expect((await probe("/readyz")).status).toBe(503);
      expect(versionAsks).toBe(1);
    } finally {
      storeHangs = false;
    }
  }, 15_000);
});

describe("an unknown path", () => {
  const LISTED = "liveness at /healthz and readiness at /readyz (no API key)";

  it("is a 404 naming every route, the probes included, without an API key", async () => {
    const { status, body } = await probe("/health");
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: "NOT_FOUND", error: expect.stringMatching(/^no route GET \/health; GraphQL is at \/graphql, reports are under /) });
    expect((body as { error: string }).error).toContain(LISTED);
  });

  it("under /api lists the probes too", async () => {
    const res = await p.get(p.keys.acmeRead, "/api/health");
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toContain(LISTED);
  });
});

describe("a read database that is closed", () => {
  let closed: Platform;
  beforeAll(async () => {
    closed = await startPlatform();
    await closed.read.database.close();
  }, 60_000);
  afterAll(() => closed?.close());

  it("makes /readyz 503 with the read models' reason, while /healthz stays 200", async () => {
    const ready = await fetch(`${closed.api.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "unready", reasons: ["read models: their database failed a trivial query; the API's log has the error"] });
    expect((await fetch(`${closed.api.url}/healthz`)).status).toBe(200);
  });
});

describe("read models no projector has run against", () => {
  // The API was ready while nothing filled its read models: createEvaluation succeeded and
  // `evaluations` answered [] for ever.
  let unprojected: Platform;
  beforeAll(async () => {
    unprojected = await startPlatform({ projectionWaitMs: 100 });
    await unprojected.projector.stop();
  }, 60_000);
  afterAll(() => unprojected?.close());

  const readyz = async () => {
    const res = await fetch(`${unprojected.api.url}/readyz`);
    return { status: res.status, body: await res.json() };
  };

  it("are ready over an empty log (a new deployment takes its first write), unready once the log holds events, ready once a projector ran", async () => {
    expect(await readyz()).toEqual({ status: 200, body: { status: "ready" } });
    // Taken, but not projected: the mutation's wait for the projector gives up.
    await unprojected.gql(unprojected.keys.acmeWrite, `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`, { yaml: CATALOG_YAML });
    expect((await unprojected.store.readAll()).length).toBeGreaterThan(0);
    expect(await readyz()).toEqual({ status: 503, body: { status: "unready", reasons: ["read models: no projector has run against them yet: start the projector"] } });
    await unprojected.projector.catchUp();
    expect(await readyz()).toEqual({ status: 200, body: { status: "ready" } });
  });
});
