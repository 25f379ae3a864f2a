// CORS (VERDICT_API_CORS_ORIGINS), against the started server with real HTTP: a browser dashboard
// on another origin could not call the API at all (its preflight answered 400 on /graphql,
// Apollo's CSRF prevention, and 401 under /api, and no answer carried Access-Control-* headers).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "./server/errors.js";
import { createMemoryApiKeyStore } from "./auth/apiKeys.js";
import { finishedSampleRun, startPlatform, type Platform } from "./testing/harness.js";

const DASHBOARD = "https://dash.example.com";
const STRANGER = "https://evil.example.net";

let cors: Platform;
let plain: Platform;
let anyOrigin: Platform;
let run: { evaluationId: string; runId: string };
/** While true, cors's key store cannot be reached (a 503). */
let keysDown = false;

beforeAll(async () => {
  const keys = createMemoryApiKeyStore();
  const verify = keys.verify.bind(keys);
  keys.verify = (key) => (keysDown ? Promise.reject(new ApiError("UNAVAILABLE", "the database cannot be reached; try again later")) : verify(key));
  [cors, plain, anyOrigin] = await Promise.all([
    startPlatform({ corsOrigins: [DASHBOARD, "http://localhost:3000"], apiKeys: keys, keyCacheMs: 0 }),
    startPlatform(),
    startPlatform({ corsOrigins: ["*"] }),
  ]);
  run = await finishedSampleRun(cors, ["gpt-5-mini", "claude-sonnet-5"]);
}, 60_000);

afterAll(() => Promise.all([cors?.close(), plain?.close(), anyOrigin?.close()]));

const CORS_HEADERS = ["access-control-allow-origin", "access-control-allow-methods", "access-control-allow-headers", "access-control-max-age", "access-control-expose-headers", "access-control-allow-credentials"];

/** The Access-Control-* headers of an answer. */
function corsHeaders(res: Response): Record<string, string> {
  return Object.fromEntries(CORS_HEADERS.flatMap((name) => (res.headers.get(name) === null ? [] : [[name, res.headers.get(name)!]])));
}

function preflight(p: Platform, path: string, origin: string, method = "POST"): Promise<Response> {
  return fetch(`${p.api.url}${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": "authorization,content-type" },
  });
}

function fromOrigin(p: Platform, path: string, origin: string, init: { method?: string; key?: string | null; body?: string; contentType?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { origin };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined) headers["content-type"] = init.contentType ?? "application/json";
  return fetch(`${p.api.url}${path}`, { method: init.method ?? (init.body === undefined ? "GET" : "POST"), headers, body: init.body });
}

const QUERY = JSON.stringify({ query: "{ catalogs { totalCount } }" });

describe("with VERDICT_API_CORS_ORIGINS set", () => {
  it("answers a listed origin's preflight on /graphql and /api/* 204 with the origin, methods, headers and max age, before any key is asked for", async () => {
    for (const path of ["/graphql", "/api/usage", `/api/evaluations/${run.evaluationId}/runs/${run.runId}/report.json`, `/api/evaluation_reports/${run.runId}`]) {
      const res = await preflight(cors, path, DASHBOARD, path === "/graphql" ? "POST" : "GET");
      expect(res.status, path).toBe(204);
      expect(corsHeaders(res), path).toEqual({
        "access-control-allow-origin": DASHBOARD,
        "access-control-allow-methods": "GET, POST, OPTIONS",
        "access-control-allow-headers": "authorization, content-type, apollo-require-preflight, x-apollo-operation-name",
        "access-control-max-age": "600",
      });
      expect(res.headers.get("vary"), path).toMatch(/\bOrigin\b/);
    }
    expect((await preflight(cors, "/graphql", "http://localhost:3000")).headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
  });

  it("gives a listed origin's answers the origin, Vary: Origin and the headers it may read: 200s, 400s, 401s, 404s and 503s alike", async () => {
    const base = `/api/evaluations/${run.evaluationId}/runs/${run.runId}`;
    const answers: Array<[string, Response, number]> = [
      ["graphql", await fromOrigin(cors, "/graphql", DASHBOARD, { key: cors.keys.acmeRead, body: QUERY }), 200],
      ["graphql without a key", await fromOrigin(cors, "/graphql", DASHBOARD, { body: QUERY }), 401],
      ["report download", await fromOrigin(cors, `${base}/report.md?download=1`, DASHBOARD, { key: cors.keys.acmeRead }), 200],
      ["usage without a key", await fromOrigin(cors, "/api/usage", DASHBOARD), 401],
      ["unknown route", await fromOrigin(cors, "/api/nothing", DASHBOARD, { key: cors.keys.acmeRead }), 404],
      ["unknown parameter", await fromOrigin(cors, `${base}/report.json?them=dark`, DASHBOARD, { key: cors.keys.acmeRead }), 400],
      ["body not JSON", await fromOrigin(cors, "/graphql", DASHBOARD, { key: cors.keys.acmeRead, body: "{" }), 400],
    ];
    keysDown = true;
    try {
      answers.push(["keys unreachable", await fromOrigin(cors, "/api/usage", DASHBOARD, { key: cors.keys.acmeRead }), 503]);
    } finally {
      keysDown = false;
    }
    for (const [what, res, status] of answers) {
      expect(res.status, what).toBe(status);
      expect(corsHeaders(res), what).toEqual({ "access-control-allow-origin": DASHBOARD, "access-control-expose-headers": "ETag, Retry-After, Content-Disposition" });
      expect(res.headers.get("vary"), what).toMatch(/\bOrigin\b/);
    }
    expect(answers[2][1].headers.get("content-disposition")).toMatch(/^attachment; filename=/);
  });

  it("keeps Vary: Origin beside Accept-Encoding on an answer kept for a finished run", async () => {
    // Over the 1 KB a kept answer is gzipped from, so its own Vary (Accept-Encoding) is written too.
    const aliases = Array.from({ length: 80 }, (_, i) => `s${i}: status`).join(" ");
    const body = JSON.stringify({ query: `{ run(id: "${run.runId}") { number ${aliases} } }` });
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${cors.api.graphqlUrl}`, { method: "POST", headers: { origin: DASHBOARD, authorization: `Bearer ${cors.keys.acmeRead}`, "content-type": "application/json" }, body });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin"), `answer ${i}`).toBe(DASHBOARD);
      expect(res.headers.get("vary"), `answer ${i}`).toMatch(/\bOrigin\b/);
    }
    const kept = await fetch(`${cors.api.graphqlUrl}`, { method: "POST", headers: { origin: DASHBOARD, authorization: `Bearer ${cors.keys.acmeRead}`, "content-type": "application/json", "accept-encoding": "gzip" }, body });
    expect(kept.headers.get("vary")?.toLowerCase().split(/\s*,\s*/).sort()).toEqual(["accept-encoding", "origin"]);
  });

  it("gives an origin it does not list no CORS headers: its preflight is answered 204 without them, its requests as ever", async () => {
    const refused = await preflight(cors, "/graphql", STRANGER);
    expect(refused.status).toBe(204);
    expect(corsHeaders(refused)).toEqual({});
    const answer = await fromOrigin(cors, "/graphql", STRANGER, { key: cors.keys.acmeRead, body: QUERY });
    expect(answer.status).toBe(200);
    expect(corsHeaders(answer)).toEqual({});
    expect(answer.headers.get("vary")).toMatch(/\bOrigin\b/);
    // Not the same origin: another scheme, port or letter case is another origin.
    for (const near of ["http://dash.example.com", "https://dash.example.com:8443", "https://DASH.example.com"]) {
      expect(corsHeaders(await preflight(cors, "/graphql", near)), near).toEqual({});
    }
  });

  it("keeps Apollo's CSRF prevention on: a simple cross-origin POST (text/plain) is still refused 400 BAD_REQUEST", async () => {
    const res = await fromOrigin(cors, "/graphql", DASHBOARD, { key: cors.keys.acmeRead, body: QUERY, contentType: "text/plain" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).errors[0]).toMatchObject({ message: expect.stringContaining("Cross-Site Request Forgery"), extensions: { code: "BAD_REQUEST" } });
    // A GET that says it was preflighted passes.
    const get = await fetch(`${cors.api.graphqlUrl}?query=${encodeURIComponent("{ catalogs { totalCount } }")}`, { headers: { origin: DASHBOARD, authorization: `Bearer ${cors.keys.acmeRead}`, "apollo-require-preflight": "true" } });
    expect([get.status, get.headers.get("access-control-allow-origin")]).toEqual([200, DASHBOARD]);
  });
});

describe("with * for any origin", () => {
  it("answers every origin *, never with credentials", async () => {
    const pre = await preflight(anyOrigin, "/api/usage", STRANGER, "GET");
    expect([pre.status, pre.headers.get("access-control-allow-origin"), pre.headers.get("access-control-allow-credentials")]).toEqual([204, "*", null]);
    const answer = await fromOrigin(anyOrigin, "/graphql", STRANGER, { key: anyOrigin.keys.acmeRead, body: QUERY });
    expect([answer.status, answer.headers.get("access-control-allow-origin"), answer.headers.get("access-control-allow-credentials")]).toEqual([200, "*", null]);
  });
});

describe("without VERDICT_API_CORS_ORIGINS", () => {
  it("sends no CORS header at all, and a preflight is answered as any request (CSRF 400 on /graphql, 401 under /api)", async () => {
    const graphql = await preflight(plain, "/graphql", DASHBOARD);
    expect(graphql.status).toBe(400);
    expect(corsHeaders(graphql)).toEqual({});
    const usage = await preflight(plain, "/api/usage", DASHBOARD, "GET");
    expect(usage.status).toBe(401);
    expect(corsHeaders(usage)).toEqual({});
    const answer = await fromOrigin(plain, "/graphql", DASHBOARD, { key: plain.keys.acmeRead, body: QUERY });
    expect(answer.status).toBe(200);
    expect(corsHeaders(answer)).toEqual({});
    expect(answer.headers.get("vary") ?? "").not.toMatch(/\bOrigin\b/);
  });
});
