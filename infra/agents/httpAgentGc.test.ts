// The http runtime's per-attempt timeout must survive garbage collection. On Node 20,
// AbortSignal.any holds its sources weakly, so a timeout signal referenced only through it
// could be collected mid-attempt and never fire (nodejs/node#57736).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpAgent } from "./httpAgent.js";

// A full collection on demand, without starting the test process with --expose-gc.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let server: Server;
let base = "";
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (req.url === "/late") setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end('{"answer":"late"}'), 1_500);
    // Headers and half a body, then nothing: the stalled-body guard's case.
    if (req.url === "/stall") res.writeHead(200, { "content-type": "application/json" }).write('{"answer":');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const scenario = { key: "refund_order", prompt: "Refund order 1234" };
const model = { label: "gpt-5-mini", provider: "openai", model: "gpt-5-mini" };

/** How long the replay took to fail, collecting garbage every 20 ms meanwhile. */
async function failsAfter(path: string): Promise<{ ms: number; message: string }> {
  const collector = setInterval(gc, 20);
  const started = Date.now();
  try {
    const agent = new HttpAgent({ url: `${base}${path}`, timeoutMs: 200, retries: 0 });
    const error = await agent.replay(scenario, model, { signal: new AbortController().signal }).then(
      () => new Error("answered"),
      (e: Error) => e,
    );
    return { ms: Date.now() - started, message: error.message };
  } finally {
    clearInterval(collector);
  }
}

describe("HttpAgent's per-attempt timeout under garbage collection", () => {
  it("fires while the agent has not answered", { timeout: 5_000 }, async () => {
    const { ms, message } = await failsAfter("/late");
    expect(message).toBe("agent did not answer within 200 ms");
    expect(ms).toBeLessThan(1_000);
  });

  it("fires while the body has stopped arriving", { timeout: 5_000 }, async () => {
    const { ms, message } = await failsAfter("/stall");
    expect(message).toBe("agent did not answer within 200 ms");
    expect(ms).toBeLessThan(1_000);
  });
});
