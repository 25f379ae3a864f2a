// `tsx apps/api/scripts/answerBudgetBench.ts [scenarios=3334] [aliases=7] [budget=default|none|BYTES]`:
// a scenarios x 3-model run with the scripted agent (as runQueryBench.ts builds it), then what one
// whole heavy field of it answers (runAudit, report html / markdown / json, whole results), then
// one query of `aliases` aliased runAudit, with the process's resident memory sampled while it is
// answered. `none` is a budget no answer reaches (the memory aliases took before the budget).
// Client and server share the process; the client counts the answer's bytes as they arrive and
// keeps none of them.
import "reflect-metadata";
import { ensureDecoratorTsconfig } from "../decoratorTsconfig.js";

const AUDIT = `runId status events { type streamId version position recordedAt schemaVersion data metadata }
  grades { scenarioKey modelLabel status score scores fault scenario replay judgeExchanges }
  verdict { verdict judgeLabel ranking judgeExchange comparison }`;

/** What each alias asks: as much of the audit as 7 aliases may ask under the cost limit (5,000). */
const ALIASED = `runId events { type streamId position data metadata } grades { scenarioKey modelLabel replay judgeExchanges }`;

const SINGLE: Record<string, string> = {
  runAudit: `query ($id: ID!) { runAudit(id: $id) { ${AUDIT} } }`,
  html: `query ($id: ID!) { run(id: $id) { report { html } } }`,
  markdown: `query ($id: ID!) { run(id: $id) { report { markdown } } }`,
  json: `query ($id: ID!) { run(id: $id) { report { json } } }`,
  results: `query ($id: ID!) { run(id: $id) { results { edges { node { n scenarioKey modelLabel status score fault answer toolCalls scores judgeExchanges } } } } }`,
};

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

/** POSTs a query; its answer's size and the error codes in its first and last 64 KB (the answer itself is not kept). */
async function answer(url: string, key: string, query: string, variables: Record<string, unknown>, onChunk: () => void = () => undefined) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: JSON.stringify({ query, variables }) });
  let bytes = 0;
  let head = "";
  let tail = "";
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (bytes < 65_536) head += new TextDecoder().decode(chunk.subarray(0, 65_536 - bytes));
    bytes += chunk.byteLength;
    tail = (tail + decoder.decode(chunk.subarray(Math.max(0, chunk.byteLength - 65_536)), { stream: true })).slice(-65_536);
    onChunk();
  }
  const codes = [...(bytes <= 65_536 ? head : head + tail).matchAll(/"code":"([A-Z_]+)"/g)].map((m) => m[1]);
  return { status: res.status, bytes, errors: codes };
}

async function main(scenarioCount: number, aliases: number, budget: string): Promise<void> {
  const { startPlatform } = await import("../testing/harness.js");
  const limits = budget === "default" ? {} : { maxAnswerBytes: budget === "none" ? Number.MAX_SAFE_INTEGER : Number(budget) };
  const p = await startPlatform({ limits });
  try {
    const scenarios = Array.from({ length: scenarioCount }, (_, i) => ({ key: `s${i}`, prompt: `Question ${i}?`, forbidden_patterns: ["password"] }));
    const created = await p.gql(p.keys.acmeWrite, `mutation ($s: JSON!) { createEvaluation(input: { agent: "SupportAgent", name: "bench", scenarios: $s, compareModels: ["gpt-5-mini", "claude-sonnet-5", "llama3:8b"] }) { evaluationId } }`, { s: scenarios });
    const run = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { startRun(evaluationId: $id) { runId } }`, { id: created.body.data.createEvaluation.evaluationId });
    const runId: string = run.body.data.startRun.runId;
    for (;;) {
      const res = await p.gql(p.keys.acmeRead, `query ($id: ID!) { run(id: $id) { status } }`, { id: runId });
      if (res.body.data?.run.status === "COMPLETED") break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const single: Record<string, unknown> = {};
    for (const [name, query] of Object.entries(SINGLE)) {
      const { bytes, errors } = await answer(p.api.graphqlUrl, p.keys.acmeRead, query, { id: runId });
      single[name] = { mb: mb(bytes), errors };
    }
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((r) => setTimeout(r, 1000));
    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
    const sampler = setInterval(sample, 5);
    const aliased = `query ($id: ID!) { ${Array.from({ length: aliases }, (_, i) => `a${i}: runAudit(id: $id) { ${ALIASED} }`).join(" ")} }`;
    const started = performance.now();
    const { status, bytes, errors } = await answer(p.api.graphqlUrl, p.keys.acmeRead, aliased, { id: runId }, sample);
    clearInterval(sampler);
    console.log(JSON.stringify({
      pairs: scenarioCount * 3, budget, single,
      aliased: { aliases, status, answerMb: mb(bytes), refused: errors.filter((c) => c === "PAYLOAD_TOO_LARGE").length, ms: Math.round(performance.now() - started), rssBeforeMb: mb(before), rssPeakMb: mb(peak), maxRssMb: mb(process.resourceUsage().maxRSS * 1024) },
    }));
  } finally {
    await p.close();
  }
}

if (ensureDecoratorTsconfig()) {
  const [scenarios = "3334", aliases = "7", budget = "default"] = process.argv.slice(2);
  main(Number(scenarios), Number(aliases), budget).then(() => process.exit(0), (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
