// Runs the http runtime against a real local HTTP server speaking the host protocol.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpAgent, HttpAgentError } from "./httpAgent.js";

type Handler = (body: any, res: ServerResponse) => void;
let server: Server;
let base = "";
const routes = new Map<string, Handler>();
const hits = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
      routes.get(req.url!)!(JSON.parse(raw), res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};
const scenario = { key: "refund_order", prompt: "Refund order 1234" };
const model = { label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini" };
const signal = new AbortController().signal;

describe("HttpAgent", () => {
  it("posts the scenario and model and returns the validated replay", async () => {
    let received: unknown;
    routes.set("/ok", (body, res) => {
      received = body;
      json(res, 200, { answer: "Refunded.", tool_calls: [{ name: "refund_order" }], duration_ms: 812, cost: 0.001 });
    });
    const replay = await new HttpAgent({ url: `${base}/ok` }).replay(scenario, model, { signal });
    expect(received).toEqual({ scenario, model });
    expect(replay).toEqual({ answer: "Refunded.", tool_calls: [{ name: "refund_order" }], duration_ms: 812, cost: 0.001 });
  });

  it("retries a 5xx with backoff, then succeeds", async () => {
    routes.set("/flaky", (_body, res) => ((hits.get("/flaky") ?? 0) < 3 ? json(res, 503, {}) : json(res, 200, { answer: "third time" })));
    const replay = await new HttpAgent({ url: `${base}/flaky`, retries: 3, backoffMs: 5 }).replay(scenario, model, { signal });
    expect(replay.answer).toBe("third time");
    expect(hits.get("/flaky")).toBe(3);
  });

  it("does not retry a 4xx", async () => {
    routes.set("/bad", (_body, res) => json(res, 422, { error: "no" }));
    await expect(new HttpAgent({ url: `${base}/bad`, retries: 3, backoffMs: 5 }).replay(scenario, model, { signal })).rejects.toThrow("agent answered HTTP 422");
    expect(hits.get("/bad")).toBe(1);
  });

  it("refuses a body that is not a replay, naming the field", async () => {
    routes.set("/invalid", (_body, res) => json(res, 200, { answer: 42 }));
    await expect(new HttpAgent({ url: `${base}/invalid` }).replay(scenario, model, { signal })).rejects.toThrow(/invalid replay: answer/);
    routes.set("/unknown", (_body, res) => json(res, 200, { answer: "x", secret_field: 1 }));
    await expect(new HttpAgent({ url: `${base}/unknown` }).replay(scenario, model, { signal })).rejects.toBeInstanceOf(HttpAgentError);
  });

  it("times out a hanging agent", async () => {
    routes.set("/hang", () => undefined);
    const started = Date.now();
    await expect(new HttpAgent({ url: `${base}/hang`, timeoutMs: 100, retries: 1, backoffMs: 5 }).replay(scenario, model, { signal })).rejects.toThrow(
      "agent did not answer within 100 ms",
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
