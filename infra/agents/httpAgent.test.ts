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
const headers = new Map<string, IncomingMessage["headers"]>();

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
      headers.set(req.url!, req.headers);
      routes.get(req.url!)!(JSON.parse(raw), res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};
const scenario = { key: "refund_order", prompt: "Refund order 1234" };
const model = { label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini" };
const signal = new AbortController().signal;

describe("HttpAgent", () => {
  it("an agent echoing what it was sent (basic credential, header, path and query token) has it redacted before the replay is recorded", async () => {
    const path = "/hooks/TOKEN1234567890AB/replay?api_key=KEY456789";
    routes.set(path, (_body, res) => {
      const got = headers.get(path)!;
      json(res, 200, {
        answer: `I was called with ${got["x-agent-token"]} at ${path}`,
        error: `upstream refused: you sent ${got.authorization} to ${path}`,
        tool_calls: [{ name: "lookup", arguments: { seen: got.authorization!.split(" ")[1], key: "KEY456789" } }],
        metadata: { by: got["x-agent-token"], hook: "TOKEN1234567890AB" },
      });
    });
    const url = `${base.replace("http://", "http://bot:S3cretPw@")}${path}`;
    const replay = await new HttpAgent({ url, headers: { "x-agent-token": "Bearer HEADERSECRET77" } }).replay(scenario, model, { signal });
    const recorded = JSON.stringify(replay);
    for (const secret of ["S3cretPw", Buffer.from("bot:S3cretPw").toString("base64"), "HEADERSECRET77", "TOKEN1234567890AB", "KEY456789"]) expect(recorded).not.toContain(secret);
    expect(replay.error).toBe("upstream refused: you sent Basic [redacted] to /hooks/[redacted]/replay?api_key=[redacted]");
    expect(replay.answer).toBe("I was called with [redacted] at /hooks/[redacted]/replay?api_key=[redacted]");

    // A bare string is not a replay: the refusal quotes its start, which must not be the credential.
    const bare = "/bare/replay?token=BARETOKEN99";
    routes.set(bare, (_body, res) => json(res, 200, `Unauthorized ${headers.get(bare)!.authorization} BARETOKEN99`));
    const message = await new HttpAgent({ url: `${base.replace("http://", "http://bot:S3cretPw@")}${bare}` })
      .replay(scenario, model, { signal })
      .then(() => "", (error: Error) => error.message);
    expect(message).toMatch(/^agent answered an invalid replay: .*got the string "Unauthorized Basic \[redacted\]/);
    expect(message).not.toMatch(/Ym90Ol|BARETOKEN99/);
    // A token as the agent's raw URL writes it (`+`, `%2F`) is found as well as decoded.
    const raw = "/raw/replay?token=Zm9vYmFy+YmF6cXV4AAA1&api_key=abc%2Fdef123456789&team=support";
    routes.set(raw, (_body, res) => json(res, 200, { answer: `you called ${raw}` }));
    const echoed = await new HttpAgent({ url: `${base}${raw}` }).replay(scenario, model, { signal });
    expect(echoed.answer).toBe("you called /raw/replay?token=[redacted]&api_key=[redacted]&team=support");
    // Ordinary query values and a password that is one plain word are not looked for (they would
    // garble answers that say them); a long unbroken token under any name is.
    const plain = "/plain/replay?team=support&env=production&fields=answer&region=eu-west-1&author=Jane+Austen+1775&x=eyJhbGciOiJIUzI1NiJ9x";
    routes.set(plain, (_body, res) => json(res, 200, { answer: "Our support team refunded it in production, eu-west-1, for Jane Austen 1775. eyJhbGciOiJIUzI1NiJ9x", tool_calls: [{ name: "refund_order", arguments: { env: "production" } }] }));
    const ordinary = await new HttpAgent({ url: `${base.replace("http://", "http://bot:order@")}${plain}` }).replay(scenario, model, { signal });
    expect(ordinary).toMatchObject({ answer: "Our support team refunded it in production, eu-west-1, for Jane Austen 1775. [redacted]", tool_calls: [{ name: "refund_order", arguments: { env: "production" } }] });
    // A password or path that does not percent-decode is still a usable agent URL.
    expect(new HttpAgent({ url: "http://bot:%E0%A4%A@127.0.0.1:9/x%E0%A4%A1234567/replay" }).name).toBe("http:http://127.0.0.1:9");
  });

  it("an echoed password is redacted from 4 characters on unless it is one plain word, where other secrets count from 8", async () => {
    routes.set("/short", (_body, res) => json(res, 200, { answer: "my password is Cy7pW9q", metadata: { Cy7pW9q: "pw1" } }));
    const replay = await new HttpAgent({ url: `${base.replace("http://", "http://bot:Cy7pW9q@")}/short` }).replay(scenario, model, { signal });
    expect(replay).toMatchObject({ answer: "my password is [redacted]", metadata: { "[redacted]": "pw1" } });
    const four = await new HttpAgent({ url: `${base.replace("http://", "http://bot:pw1@")}/short` }).replay(scenario, model, { signal });
    expect(four.metadata).toEqual({ Cy7pW9q: "pw1" }); // 3 characters: not looked for
    routes.set("/four", (_body, res) => json(res, 200, { answer: "sent a%2Fb and a/b" }));
    const encoded = await new HttpAgent({ url: `${base.replace("http://", "http://bot:a%2Fb@")}/four` }).replay(scenario, model, { signal });
    expect(encoded.answer).toBe("sent [redacted] and a/b"); // decoded, 3 characters: not looked for
  });

  it("an echoed query value named like a credential (jwt, pw, sas, …) or bare is redacted, and so is a long path segment without digits", async () => {
    const query = "jwt=CANARY-JWT-1&pass=CANARY-PASS-1&pw=CANARY-PW-1&code=CANARY-CODE-1&bearer=CANARY-BEARER-1&access=CANARY-ACCESS-1&sas=sv%3D2024%26sig%3DCANARY-SAS";
    const path = `/hooks/CANARYpathTOKENonlyLettersXyz/replay?${query}&CANARY-BARE-1`;
    routes.set(path, (_body, res) => json(res, 200, { answer: `called ${path}`, metadata: Object.fromEntries(new URL(path, base).searchParams) }));
    const replay = await new HttpAgent({ url: `${base}${path}` }).replay(scenario, model, { signal });
    expect(JSON.stringify(replay)).not.toMatch(/CANARY(pathTOKEN|-(JWT|PASS|PW|CODE|BEARER|ACCESS|SAS|BARE))/);
    expect(replay.answer).toBe(`called /hooks/[redacted]/replay?${query.replace(/=[^&]+/g, "=[redacted]")}&[redacted]`);
  });

  it("an agent echoing its URL in keys (metadata, tool-call arguments, an unknown key) has it redacted there too, before the replay is checked", async () => {
    const path = "/hooks/CANARYPATHTOKEN0123456/replay?token=CANARY-QTOKEN-1&api_key=CANARY-QKEY-1";
    const secrets = /CANARY-AGENT-PW-1|CANARYPATHTOKEN0123456|CANARY-QTOKEN-1|CANARY-QKEY-1/;
    const url = `${base.replace("http://", "http://agentuser:CANARY-AGENT-PW-1@")}${path}`;
    const shown = "/hooks/[redacted]/replay?token=[redacted]&api_key=[redacted]";
    routes.set(path, (_body, res) =>
      json(res, 200, {
        answer: "x",
        tool_calls: [{ name: "lookup", arguments: { [path]: 1, "CANARY-AGENT-PW-1": 2 } }],
        metadata: { [path]: "seen", [`again ${path}`]: "seen", "CANARY-QTOKEN-1": "a", "CANARY-QKEY-1": "b" },
      }),
    );
    const replay = await new HttpAgent({ url }).replay(scenario, model, { signal });
    expect(JSON.stringify(replay)).not.toMatch(secrets);
    expect(replay.tool_calls).toEqual([{ name: "lookup", arguments: { [shown]: 1, "[redacted]": 2 } }]);
    // Two keys that redact alike are both kept.
    expect(replay.metadata).toEqual({ [shown]: "seen", [`again ${shown}`]: "seen", "[redacted]": "a", "[redacted] (2)": "b" });

    // An unknown key is refused by name: the name as redacted.
    const unknown = "/unknown/replay?token=CANARY-QTOKEN-1";
    routes.set(unknown, (_body, res) => json(res, 200, { answer: "x", [unknown]: 1 }));
    const message = await new HttpAgent({ url: `${base}${unknown}` }).replay(scenario, model, { signal }).then(() => "", (error: Error) => error.message);
    expect(message).toBe("agent answered an invalid replay: replay./unknown/replay?token=[redacted]: unknown key");
    // The keys a replay is read by are kept, even when a secret is one of them.
    routes.set("/shape", (_body, res) => json(res, 200, { answer: "x", metadata: { ok: true }, tool_calls: [{ name: "lookup" }] }));
    const shaped = await new HttpAgent({ url: `${base.replace("http://", "http://bot:metadata@")}/shape` }).replay(scenario, model, { signal });
    expect(shaped).toMatchObject({ answer: "x", metadata: { ok: true }, tool_calls: [{ name: "lookup" }] });
  });

  it("posts the scenario and model and returns the validated replay", async () => {
    let received: unknown;
    routes.set("/ok", (body, res) => {
      received = body;
      json(res, 200, { answer: "Refunded.", tool_calls: [{ name: "refund_order" }], duration_ms: 812, cost: 0.001 });
    });
    const replay = await new HttpAgent({ url: `${base}/ok` }).replay(scenario, model, { signal });
    expect(received).toEqual({ scenario, model });
    expect(replay).toEqual({ answer: "Refunded.", tool_calls: [{ name: "refund_order" }], duration_ms: 812, cost: 0.001, metadata: {} });
  });

  it("times the request when the agent reports no duration_ms, the successful attempt alone; the agent's own duration_ms wins", async () => {
    const delayed = (ms: number, body: object) => (_body: unknown, res: ServerResponse) => setTimeout(() => json(res, 200, body), ms);
    routes.set("/untimed", delayed(150, { answer: "Took a while." }));
    const timed = await new HttpAgent({ url: `${base}/untimed` }).replay(scenario, model, { signal });
    expect(timed.duration_ms).toBeGreaterThanOrEqual(150);
    expect(timed.duration_ms).toBeLessThan(2_000);
    routes.set("/self-timed", delayed(150, { answer: "Took a while.", duration_ms: 40 }));
    expect((await new HttpAgent({ url: `${base}/self-timed` }).replay(scenario, model, { signal })).duration_ms).toBe(40);
    // A 503 answered at once, a 500 ms backoff, then 100 ms to answer: the agent's latency is the 100 ms.
    routes.set("/retried", (_body, res) => ((hits.get("/retried") ?? 0) < 2 ? json(res, 503, {}) : setTimeout(() => json(res, 200, { answer: "second time" }), 100)));
    const started = performance.now();
    const retried = await new HttpAgent({ url: `${base}/retried`, retries: 1, backoffMs: 500 }).replay(scenario, model, { signal });
    expect(performance.now() - started).toBeGreaterThanOrEqual(600);
    expect(retried.duration_ms).toBeGreaterThanOrEqual(100);
    expect(retried.duration_ms).toBeLessThan(500);
  });

  it("reads an answer that starts with a byte order mark, as Response.json() does", async () => {
    routes.set("/bom", (_body, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`\uFEFF${JSON.stringify({ answer: "With a BOM." })}`);
    });
    expect((await new HttpAgent({ url: `${base}/bom` }).replay(scenario, model, { signal })).answer).toBe("With a BOM.");
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
    await expect(new HttpAgent({ url: `${base}/invalid` }).replay(scenario, model, { signal })).rejects.toThrow(
      "agent answered an invalid replay: replay.answer: must be a string or null, got the number 42",
    );
    routes.set("/unknown", (_body, res) => json(res, 200, { answer: "x", secret_field: 1 }));
    const error = await new HttpAgent({ url: `${base}/unknown` }).replay(scenario, model, { signal }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(HttpAgentError);
    expect((error as Error).message).toBe("agent answered an invalid replay: replay.secret_field: unknown key");
  });

  it("accepts every replay Replay.from accepts: tool calls as names, nulls, camelCase keys", async () => {
    routes.set("/names", (_body, res) => json(res, 200, { answer: "ok", tool_calls: ["lookup_order", { name: "refund_order" }] }));
    expect((await new HttpAgent({ url: `${base}/names` }).replay(scenario, model, { signal })).tool_calls).toEqual([{ name: "lookup_order" }, { name: "refund_order" }]);
    routes.set("/nulls", (_body, res) => json(res, 200, { answer: "ok", tool_calls: null, metadata: null, cost: null }));
    expect(await new HttpAgent({ url: `${base}/nulls` }).replay(scenario, model, { signal })).toEqual({ answer: "ok", tool_calls: [], metadata: {}, duration_ms: expect.any(Number) });
    routes.set("/camel", (_body, res) =>
      json(res, 200, { answer: "ok", toolCalls: [{ name: "lookup_order", durationMs: 5 }], durationMs: 812, inputTokens: 10, outputTokens: 3 }),
    );
    expect(await new HttpAgent({ url: `${base}/camel` }).replay(scenario, model, { signal })).toEqual({
      answer: "ok",
      tool_calls: [{ name: "lookup_order", duration_ms: 5 }],
      duration_ms: 812,
      input_tokens: 10,
      output_tokens: 3,
      metadata: {},
    });
  });

  it("times out a hanging agent, and does not send the replay again: its tools may have run", async () => {
    routes.set("/hang", () => undefined);
    const started = Date.now();
    await expect(new HttpAgent({ url: `${base}/hang`, timeoutMs: 100, retries: 1, backoffMs: 5 }).replay(scenario, model, { signal })).rejects.toThrow(
      "agent did not answer within 100 ms",
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(hits.get("/hang")).toBe(1);
  });

  it("without a timeout of its own, waits on the agent for as long as the caller's signal allows", async () => {
    routes.set("/slow", (_body, res) => setTimeout(() => json(res, 200, { answer: "slow but fine" }), 300));
    expect((await new HttpAgent({ url: `${base}/slow` }).replay(scenario, model, { signal })).answer).toBe("slow but fine");
    routes.set("/slower", () => undefined);
    const budget = new AbortController();
    setTimeout(() => budget.abort(new Error("replay did not finish within 200 ms")), 200);
    const error = await new HttpAgent({ url: `${base}/slower`, backoffMs: 5 }).replay(scenario, model, { signal: budget.signal }).catch((e: Error) => e);
    // The budget's own error, not one the agent made up.
    expect((error as Error).message).toBe("replay did not finish within 200 ms");
    expect(hits.get("/slower")).toBe(1);
  });
});

describe("HttpAgent against a hostile or broken endpoint", () => {
  it("sends a URL's user and password as basic auth, and never puts them in an error", async () => {
    routes.set("/auth", (_body, res) => json(res, 200, { answer: "ok" }));
    const agent = new HttpAgent({ url: `${base.replace("http://", "http://alice:S3cret@")}/auth` });
    expect(agent.name).toBe(`http:${base}`);
    expect((await agent.replay(scenario, model, { signal })).answer).toBe("ok");
    expect(headers.get("/auth")?.authorization).toBe(`Basic ${Buffer.from("alice:S3cret").toString("base64")}`);

    // A port nothing listens on: one just freed.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = new HttpAgent({ url: `http://alice:S3cret@127.0.0.1:${port}/replay`, retries: 0 });
    const error = await unreachable.replay(scenario, model, { signal }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(HttpAgentError);
    expect((error as Error).message).toBe(`agent unreachable: connect ECONNREFUSED 127.0.0.1:${port}`);
    expect((error as Error).message).not.toContain("S3cret");
    expect(() => new HttpAgent({ url: "ftp://alice:S3cret@host/replay" })).toThrow("agent url must be http(s): ftp://host");
  });

  it("follows no redirect, so its headers never reach the host a redirect names", async () => {
    routes.set("/moved", (_body, res) => {
      res.writeHead(307, { location: `${base}/elsewhere` });
      res.end();
    });
    routes.set("/elsewhere", (_body, res) => json(res, 200, { answer: "from elsewhere" }));
    const agent = new HttpAgent({ url: `${base}/moved`, headers: { "x-api-key": "HEADERSECRET" } });
    const error = await agent.replay(scenario, model, { signal }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(HttpAgentError);
    expect((error as Error).message).toBe("agent answered a redirect (HTTP 307), which is not followed: give the URL of the replay endpoint itself");
    expect(hits.get("/moved")).toBe(1); // final: not retried
    expect(hits.get("/elsewhere")).toBeUndefined();
  });

  it("refuses a header fetch would refuse when it is configured, naming the header but not its value", () => {
    const build = () => new HttpAgent({ url: `${base}/replay`, headers: { authorization: "Bearer sk-LIVE-SECRET\nx" } });
    expect(build).toThrow('agent header "authorization" is not a valid HTTP header (value not shown)');
    expect(() => build()).not.toThrow(/sk-LIVE-SECRET/);
  });

  it("refuses a body over the limit without reading it all, and does not retry it", async () => {
    routes.set("/huge", (_body, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"answer":"');
      const chunk = "x".repeat(64 * 1024);
      // Streams until the client hangs up: an endpoint that never stops.
      const pump = () => {
        while (res.write(chunk));
      };
      res.on("drain", pump);
      res.on("close", () => res.off("drain", pump));
      pump();
    });
    const agent = new HttpAgent({ url: `${base}/huge`, maxBodyBytes: 1024 * 1024, retries: 2, backoffMs: 5 });
    await expect(agent.replay(scenario, model, { signal })).rejects.toThrow("agent answered a body over 1,048,576 bytes");
    expect(hits.get("/huge")).toBe(1);
  });

  it("a body that stops arriving is a timeout, not a body that is not JSON, and is final: the agent answered", async () => {
    routes.set("/stall", (_body, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"answer":');
    });
    const agent = new HttpAgent({ url: `${base}/stall`, timeoutMs: 100, retries: 1, backoffMs: 5 });
    await expect(agent.replay(scenario, model, { signal })).rejects.toThrow("agent did not answer within 100 ms");
    expect(hits.get("/stall")).toBe(1);
  });

  it("a body that breaks off after a 200 is final", async () => {
    routes.set("/broken", (_body, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"answer":', () => res.destroy());
    });
    const agent = new HttpAgent({ url: `${base}/broken`, retries: 2, backoffMs: 5 });
    await expect(agent.replay(scenario, model, { signal })).rejects.toThrow(/^agent's answer broke off/);
    expect(hits.get("/broken")).toBe(1);
  });

  it("a connection lost after the request was sent is final: the agent may be running it", async () => {
    routes.set("/hangup", (_body, res) => res.socket?.destroy());
    const agent = new HttpAgent({ url: `${base}/hangup`, retries: 2, backoffMs: 5 });
    await expect(agent.replay(scenario, model, { signal })).rejects.toThrow(/^agent unreachable: /);
    expect(hits.get("/hangup")).toBe(1);
  });

  it("a refused connection is retried: the request never reached the agent", async () => {
    const later = createServer((req, res) => {
      req.resume();
      json(res, 200, { answer: "up now" });
    });
    await new Promise<void>((resolve) => later.listen(0, "127.0.0.1", resolve));
    const port = (later.address() as AddressInfo).port;
    await new Promise<void>((resolve) => later.close(() => resolve()));
    const agent = new HttpAgent({ url: `http://127.0.0.1:${port}/replay`, retries: 2, backoffMs: 300 });
    const replaying = agent.replay(scenario, model, { signal });
    // Refused at first; the agent comes up during the backoff.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise<void>((resolve) => later.listen(port, "127.0.0.1", resolve));
    try {
      expect((await replaying).answer).toBe("up now");
    } finally {
      later.closeAllConnections();
      await new Promise<void>((resolve) => later.close(() => resolve()));
    }
  });

  it("garbage, an empty body and a 500 with an HTML page are clear errors", async () => {
    routes.set("/garbage", (_body, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("<html>oops</html>");
    });
    await expect(new HttpAgent({ url: `${base}/garbage` }).replay(scenario, model, { signal })).rejects.toThrow("agent answered a body that is not JSON");
    routes.set("/empty", (_body, res) => res.end());
    await expect(new HttpAgent({ url: `${base}/empty` }).replay(scenario, model, { signal })).rejects.toThrow("agent answered a body that is not JSON");
    routes.set("/500", (_body, res) => {
      res.writeHead(500, { "content-type": "text/html" });
      res.end("<html>Internal error</html>");
    });
    await expect(new HttpAgent({ url: `${base}/500`, retries: 1, backoffMs: 5 }).replay(scenario, model, { signal })).rejects.toThrow("agent answered HTTP 500");
    expect(hits.get("/500")).toBe(2);
    routes.set("/array", (_body, res) => json(res, 200, [1, 2]));
    await expect(new HttpAgent({ url: `${base}/array` }).replay(scenario, model, { signal })).rejects.toThrow("agent answered an invalid replay: replay.(root): must be a Replay or an object, got an array");
  });
});
