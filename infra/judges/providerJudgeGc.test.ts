// A provider judge's own timeout must survive garbage collection, and a call must leave nothing
// on its caller's signal. On Node 20, AbortSignal.any holds its sources weakly, so a timeout
// signal referenced only through it could be collected mid-call and never fire
// (nodejs/node#57736), and it added an entry to the caller's signal that stayed.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { abortLoad } from "../abort/abortLoad.testing.js";
import { startFakeModelProvider, type FakeModelProvider } from "../testing/index.js";
import { ProviderJudge, ProviderJudges } from "./providerJudge.js";
import { providerEndpointsFrom } from "./providerRoute.js";

// A full collection on demand, without starting the test process with --expose-gc.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const KEY = "sk-test-SECRETKEY-0123456789";
let provider: FakeModelProvider;
beforeAll(async () => {
  // Answers after 1.5 s: long past the judge's timeout.
  provider = await startFakeModelProvider({ apiKey: KEY, answer: () => new Promise((resolve) => setTimeout(() => resolve('{"score": 1}'), 1_500)) });
});
afterAll(async () => provider.close());

describe("ProviderJudge's own timeout under garbage collection", () => {
  it("stops the call at its timeout, and leaves nothing on the caller's signal", { timeout: 5_000 }, async () => {
    const judge = new ProviderJudges(providerEndpointsFrom({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: provider.baseURL }), { maxRetries: 0, timeoutMs: 200 }).forModel("gpt-5-mini") as ProviderJudge;
    // A worker's signal: it outlives every call made under it.
    const caller = new AbortController();
    // Loaded before the clock starts, so the timeout is the only wait measured.
    await judge.complete({ kind: "score", instructions: "i", prompt: "p", signal: AbortSignal.abort() }).catch(() => undefined);
    const collector = setInterval(gc, 10);
    const started = Date.now();
    try {
      const message = await judge.complete({ kind: "score", instructions: "i", prompt: "p", signal: caller.signal }).then(() => "answered", (error: Error) => error.message);
      expect(message).toMatch(/^openai judge call failed: /);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      clearInterval(collector);
    }
    expect(abortLoad(caller.signal)).toBe(0);
  });
});
