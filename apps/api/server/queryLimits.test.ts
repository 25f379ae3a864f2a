import "reflect-metadata";
import { describe, expect, it } from "vitest";
import { getIntrospectionQuery, parse, specifiedRules, validate, type ValidationRule } from "graphql";
import { buildApiSchema } from "../schema/buildApiSchema.js";
import { costLimit, depthLimit, introspectionWithoutAliases, literalDepthLimit, MAX_SPREAD_NESTING, MAX_TYPE_PROBES } from "./queryLimits.js";

async function check(query: string, rules: ValidationRule[]) {
  return validate(await buildApiSchema(), parse(query), [...specifiedRules, ...rules]).map((e) => e.message);
}

describe("depthLimit", () => {
  it("counts nested selections, through fragments, and refuses beyond the limit", async () => {
    const deep = `{ run(id: "r") { evaluation { latestRun { evaluation { id } } } } }`;
    expect(await check(deep, [depthLimit(4)])).toEqual([]);
    expect(await check(deep, [depthLimit(3)])).toEqual(["query is nested 4 levels deep; the limit is 3"]);
    const viaFragment = `{ run(id: "r") { ...R } } fragment R on Run { evaluation { latestRun { id } } }`;
    expect(await check(viaFragment, [depthLimit(2)])).toEqual(["query is nested 3 levels deep; the limit is 2"]);
  });
});

describe("costLimit", () => {
  it("counts a connection's page once, at its edges, and other lists as a default page", async () => {
    const small = `{ evaluations(first: 2) { edges { node { id compareModels } } } }`;
    // evaluations 1 + (edges 1 + 2 x (node 1 + id 1 + compareModels 1))
    expect(await check(small, [costLimit(8)])).toEqual([]);
    expect(await check(small, [costLimit(7)])).toEqual(["query costs 8; the limit is 7"]);
    // A plain list inside a page: each of the page's nodes lists a default page of 20.
    const runs = `{ evaluation(id: "e") { runs { edges { node { id models { label provider model } } } } } }`;
    // evaluation 1 + runs 1 + (edges 1 + 20 x (node 1 + id 1 + models 1 + 20 x 3))
    expect(await check(runs, [costLimit(5000)])).toEqual([]);
    expect(await check(runs, [costLimit(1262)])).toEqual(["query costs 1263; the limit is 1262"]);
  });

  it("accepts the documented largest page under the default limit, and refuses what multiplies past it", async () => {
    // `first` is documented as 0..100: the largest page of a few fields fits (it cost 8,503 when
    // counted at the connection and again at its edges).
    const largest = `{ evaluation(id: "e") { runs(first: 100) { totalCount edges { cursor node { id number status } } } } }`;
    expect(await check(largest, [costLimit(5000)])).toEqual([]);
    expect(await check(`{ evaluation(id: "e") { runs { edges { node { id number status origin judgeLabel errorMessage scheduledAt startedAt completedAt } } } } }`, [costLimit(5000)])).toEqual([]);
    // A huge `first`, and pages nested in pages, are still refused.
    const huge = `{ evaluations(first: 100000) { edges { node { id } } } }`;
    expect(await check(huge, [costLimit(5000)])).toEqual(["query costs 200002; the limit is 5000"]);
    const nested = `{ evaluations(first: 100) { edges { node { runs(first: 100) { edges { node { id } } } } } } }`;
    expect(await check(nested, [costLimit(5000)])).toEqual([`query costs ${1 + 1 + 100 * (1 + 1 + 1 + 100 * 2)}; the limit is 5000`]);
  });

  it("counts a page through fragments as it does inline", async () => {
    const inline = `{ evaluations(first: 7) { edges { node { id } } } }`;
    const spread = `{ evaluations(first: 7) { ...E } } fragment E on EvaluationConnection { edges { node { id } } }`;
    const other = `{ evaluations(first: 7) { ...E } a: evaluations(first: 3) { ...E } } fragment E on EvaluationConnection { edges { node { id } } }`;
    expect(await check(inline, [costLimit(1)])).toEqual(["query costs 16; the limit is 1"]);
    expect(await check(spread, [costLimit(1)])).toEqual(["query costs 16; the limit is 1"]);
    // The fragment's cost is kept per page size: the second page is not charged as the first.
    expect(await check(other, [costLimit(1)])).toEqual([`query costs ${16 + 8}; the limit is 1`]);
  });

  it("counts a negative `first` as an empty page, so it cannot cancel the cost of other fields", async () => {
    const heavy = `{ a: run(id: "r") { report { html } } b: run(id: "r") { report { html } } }`;
    const cancelled = `{ a: run(id: "r") { report { html } } b: run(id: "r") { report { html } } evaluations(first: -100000) @skip(if: true) { edges { node { id } } } }`;
    expect(await check(heavy, [costLimit(1000)])).toEqual(["query costs 2004; the limit is 1000"]);
    // evaluations 1 + (edges 1 + 0 x ...)
    expect(await check(cancelled, [costLimit(1000)])).toEqual(["query costs 2006; the limit is 1000"]);
    const viaVariable = `query ($n: Int) { a: run(id: "r") { report { html } } b: run(id: "r") { report { html } } evaluations(first: $n) { edges { node { id } } } }`;
    expect(await check(viaVariable, [costLimit(1000, () => ({ n: -2_000_000 }))])).toEqual(["query costs 2006; the limit is 1000"]);
  });

  it("reads `first` from variables when given them", async () => {
    const query = `query ($n: Int) { evaluations(first: $n) { edges { cursor } } }`;
    // evaluations 1 + (edges 1 + 50 x cursor 1)
    expect(await check(query, [costLimit(10, () => ({ n: 50 }))])).toEqual(["query costs 52; the limit is 10"]);
  });

  it("counts a variable the request leaves out at its declared default", async () => {
    const nested = `query ($n: Int = 100) { evaluations(first: $n) { edges { node { runs(first: $n) { edges { node { id } } } } } } }`;
    // It cost two default pages (1 + 1 + 20 x (1 + 1 + 1 + 20 x 2)) and was let through.
    expect(await check(nested, [costLimit(5000)])).toEqual([`query costs ${1 + 1 + 100 * (1 + 1 + 1 + 100 * 2)}; the limit is 5000`]);
    expect(await check(nested, [costLimit(5000, () => ({ n: 2 }))])).toEqual([]); // a value given wins
  });

  it("counts a `first` that is no GraphQL Int as a default page, leaving its refusal to the type check", async () => {
    const query = `query ($n: Int) { evaluations(first: $n) { edges { cursor } } }`;
    // evaluations 1 + (edges 1 + 20 x cursor 1), as without `first`; 2^31 had cost 4,294,967,298
    for (const n of [2 ** 31, 1.5, 1e300, "50"]) expect(await check(query, [costLimit(10, () => ({ n }))])).toEqual(["query costs 22; the limit is 10"]);
    expect(await check(query, [costLimit(10, () => ({ n: 2 ** 31 - 1 }))])).toEqual([`query costs ${2 + (2 ** 31 - 1)}; the limit is 10`]);
  });
});

describe("costLimit on a run's usage figures", () => {
  it("prices each usage figure read from the runs' aggregate at 5, a column at 1, and a judge's kinds as a list of 4", async () => {
    const cost = async (usage: string) => Number(/costs (\d+);/.exec((await check(`{ run(id: "r") { usage { ${usage} } } }`, [costLimit(0)]))[0])![1]);
    // run 1 + usage 1 + side 1 + its fields.
    expect(await cost("agent { inputTokens cost }")).toBe(3 + 2);
    for (const field of ["priced", "unpriced", "reported", "estimated", "costBasis", "replays", "perInteraction", "modelTimeMs", "model"]) {
      expect(await cost(`agent { ${field} }`)).toBe(3 + 5);
    }
    // source reads the aggregate (where each result's usage came from); calls is a column.
    expect(await cost("judge { source calls }")).toBe(3 + 5 + 1);
    // byKind 5 + 4 x (kind 1 + calls 1); run 5 + calls 1 + byKind 1 + 4 x kind 1.
    expect(await cost("judge { byKind { kind calls } }")).toBe(3 + 5 + 4 * 2);
    expect(await cost("judge { run { calls byKind { kind } } }")).toBe(3 + 5 + 1 + 1 + 4);
    expect(await cost("runtimeMs totalCost")).toBe(2 + 2);
  });

  it("lets a page of 50 runs ask for every usage figure, and refuses 100", async () => {
    const every = (first: number) => `{ evaluation(id: "e") { runs(first: ${first}) { edges { node { usage {
      agent { priced unpriced reported estimated costBasis replays perInteraction modelTimeMs }
      judge { source model byKind { kind calls inputTokens outputTokens cost } run { calls cost byKind { kind calls } } } runtimeMs } } } } } }`;
    expect(await check(every(50), [costLimit(5000)])).toEqual([]);
    // evaluation 1 + runs 1 + edges 1 + 100 x (node 1 + usage 1 + agent 1 + 8 x 5 + judge 1 + source 5 + model 5
    //   + byKind 5 + 4 x 5 + run 5 + calls 1 + cost 1 + byKind 1 + 4 x 2 + runtimeMs 1)
    const perRun = 1 + 1 + 1 + 8 * 5 + 1 + 5 + 5 + 5 + 4 * 5 + 5 + 1 + 1 + 1 + 4 * 2 + 1;
    expect(await check(every(100), [costLimit(5000)])).toEqual([`query costs ${3 + 100 * perRun}; the limit is 5000`]);
  });
});

describe("costLimit on whole-run renderings", () => {
  it("counts a report rendering or a run audit as its size, so aliases cannot repeat one", async () => {
    // run 1 + report 1 + html 1000 + markdown 1000 + json 1000; runAudit 500 + runId 1
    const one = `{ run(id: "r") { report { html markdown json } } runAudit(id: "r") { runId } }`;
    expect(await check(one, [costLimit(5000)])).toEqual([]);
    expect(await check(one, [costLimit(3502)])).toEqual(["query costs 3503; the limit is 3502"]);
    const aliases = Array.from({ length: 6 }, (_, i) => `h${i}: html`).join(" ");
    expect(await check(`{ run(id: "r") { report { ${aliases} } } }`, [costLimit(5000)])).toEqual(["query costs 6002; the limit is 5000"]);
  });

  it("prices a report's pieces so a query holds at most a hundred of them", async () => {
    // run 1 + report 1 + 50 each
    const pieces = `{ run(id: "r") { report { verdictMarkdown fixItemsMarkdown(model: "m") scenarioMarkdown(key: "k") } } }`;
    expect(await check(pieces, [costLimit(152)])).toEqual([]);
    expect(await check(pieces, [costLimit(151)])).toEqual(["query costs 152; the limit is 151"]);
    const aliases = (count: number) => Array.from({ length: count }, (_, i) => `s${i}: scenarioMarkdown(key: "k${i}")`).join(" ");
    expect(await check(`{ run(id: "r") { report { ${aliases(99)} } } }`, [costLimit(5000)])).toEqual([]);
    expect(await check(`{ run(id: "r") { report { ${aliases(100)} } } }`, [costLimit(5000)])).toEqual(["query costs 5002; the limit is 5000"]);
  });

  it("prices a run's whole results or matrix at its own cost, whatever page `first` asks for", async () => {
    // run 1 + results 500 + (edges 1 + 20 x (node 1 + n 1 + status 1))
    const whole = `{ run(id: "r") { results { edges { node { n status } } } } }`;
    expect(await check(whole, [costLimit(561)])).toEqual(["query costs 562; the limit is 561"]);
    expect(await check(`{ run(id: "r") { results(first: 3000) { edges { node { n status } } } } }`, [costLimit(561)])).toEqual(["query costs 562; the limit is 561"]);
    // A smaller page costs less: 1 + 500 + (1 + 5 x 3).
    expect(await check(`{ run(id: "r") { matrix(first: 5) { edges { node { scenarioKey group } } } } }`, [costLimit(516)])).toEqual(["query costs 517; the limit is 516"]);
    // The other whole lists likewise: a page of 1,000 scenarios costs what the whole suite does.
    // evaluation 1 + scenarios 500 + (edges 1 + 20 x (node 1 + key 1 + prompt 1))
    for (const args of ["", "(first: 1000)"]) {
      expect(await check(`{ evaluation(id: "e") { scenarios${args} { edges { node { key prompt } } } } }`, [costLimit(561)])).toEqual(["query costs 562; the limit is 561"]);
    }
    // Ten aliases of the whole list are refused at the default limit.
    const aliases = Array.from({ length: 10 }, (_, i) => `r${i}: results { edges { node { n } } }`).join(" ");
    expect((await check(`{ run(id: "r") { ${aliases} } }`, [costLimit(5000)]))[0]).toMatch(/^query costs \d+; the limit is 5000$/);
  });
});

describe("costLimit on whole lists", () => {
  // Each whole list (a connection answering every item unless `first` says fewer): where it is
  // asked, and a field of its nodes that answers text of any length.
  const wholeLists = [
    { list: "scenarios", node: "prompt", around: [`evaluation(id: "e") {`, "}"] },
    { list: "catalogs", node: "description", around: ["", ""] },
    { list: "fixItems", node: "item", around: [`run(id: "r") {`, "}"] },
    { list: "results", node: "answer", around: [`run(id: "r") {`, "}"] },
    { list: "matrix", node: "scenarioKey", around: [`run(id: "r") {`, "}"] },
  ];
  /** `n` aliases of the list, whole (or `args` applied), side by side in one query. */
  const query = ({ list, node, around }: (typeof wholeLists)[number], n = 1, args = "") =>
    `{ ${around[0]} ${Array.from({ length: n }, (_, i) => `a${i}: ${list}${args} { edges { node { ${node} } } }`).join(" ")} ${around[1]} }`;
  const costOf = async (q: string) => Number(/^query costs (\d+);/.exec((await check(q, [costLimit(0)]))[0])?.[1]);

  it("refuses 100 aliases of a whole list, which a default page's price let through (169 MB answered for a 2,000-scenario suite)", async () => {
    for (const whole of wholeLists) {
      for (const n of [100, 10]) expect(await check(query(whole, n), [costLimit(5000)]), `${n} ${whole.list}`).toEqual([expect.stringMatching(/^query costs \d+; the limit is 5000$/)]);
    }
  });

  it("still lets one whole list through, and never prices part of one above all of it", async () => {
    for (const whole of wholeLists) {
      expect(await check(query(whole), [costLimit(5000)]), whole.list).toEqual([]);
      const all = await costOf(query(whole));
      // The list's own 500 besides its page (a root list has no parent field: 1 less).
      expect(all, whole.list).toBe((whole.around[0] ? 1 : 0) + 500 + 1 + 20 * 2);
      for (const first of [0, 1, 20, 2000]) expect(await costOf(query(whole, 1, `(first: ${first})`)), `${whole.list}(first: ${first})`).toBeLessThanOrEqual(all);
    }
  });

  it("prices a comparison of two runs as a whole answer, so aliases cannot repeat its lists", async () => {
    // compareRuns 500 + (stillPassing 1 + 20 x (scenarioKey 1 + modelLabel 1))
    const one = `{ compareRuns(a: "r1", b: "r2") { stillPassing { scenarioKey modelLabel } } }`;
    expect(await check(one, [costLimit(540)])).toEqual(["query costs 541; the limit is 540"]);
    const many = `{ ${Array.from({ length: 10 }, (_, i) => `c${i}: compareRuns(a: "r1", b: "r2") { stillPassing { scenarioKey } }`).join(" ")} }`;
    expect(await check(many, [costLimit(5000)])).toEqual([expect.stringMatching(/^query costs \d+; the limit is 5000$/)]);
  });
});

describe("costLimit on agents and their releases", () => {
  it("counts both as pages, so aliases are charged each page they ask for", async () => {
    const one = `a0: agent(name: "Big") { releases { edges { node { version digest } } } }`;
    // agent 1 + releases 1 + (edges 1 + 20 x (node 1 + version 1 + digest 1))
    expect(await check(`{ ${one} }`, [costLimit(1)])).toEqual([`query costs ${1 + 1 + 1 + 20 * 3}; the limit is 1`]);
    // Unpaged plain lists, counted as 20 at 2 a release, let 227 of these through (a whole list each).
    const aliased = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: agent(name: "Big") { releases { edges { node { version } } } }`).join(" ")} }`;
    expect(await check(aliased(100), [costLimit(5000)])).toEqual([]);
    expect(await check(aliased(227), [costLimit(5000)])).toEqual([`query costs ${227 * (1 + 1 + 1 + 20 * 2)}; the limit is 5000`]);
    const everyAgent = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: agents { edges { node { name releases { edges { node { version } } } } } }`).join(" ")} }`;
    const perAgents = 1 + 1 + 20 * (1 + 1 + 1 + 1 + 20 * 2);
    expect(await check(everyAgent(5), [costLimit(5000)])).toEqual([]);
    expect(await check(everyAgent(11), [costLimit(5000)])).toEqual([`query costs ${11 * perAgents}; the limit is 5000`]);
    // The largest pages, nested, are refused.
    const largest = `{ agents(first: 100) { edges { node { releases(first: 100) { edges { node { version } } } } } } }`;
    expect(await check(largest, [costLimit(5000)])).toEqual([`query costs ${1 + 1 + 100 * (1 + 1 + 1 + 100 * 2)}; the limit is 5000`]);
  });
});

describe("depth and cost of documents built to be slow", () => {
  const chain = (n: number, spreads: number) =>
    `{ catalogs { edges { node { ...f0 } } } } ` + Array.from({ length: n }, (_, i) => `fragment f${i} on Catalog { key ${i + 1 < n ? `...f${i + 1} `.repeat(spreads) : ""}}`).join(" ");
  const timed = async (query: string, rules: ValidationRule[]) => {
    const started = performance.now();
    const messages = await check(query, rules);
    return { messages, ms: performance.now() - started };
  };

  it("works out each fragment once, however often it is spread", async () => {
    // Each fragment spreads the next one twice: 2^24 paths, one fragment each.
    const { messages, ms } = await timed(chain(24, 2), [depthLimit(12), costLimit(5000)]);
    // catalogs 500 + its edges 1, then a default page of 20 nodes, each 1 + the chain (2^24 - 1).
    expect(messages).toEqual([`query costs ${501 + 20 * 2 ** 24}; the limit is 5000`]);
    // Followed path by path, it took 67 s.
    expect(ms).toBeLessThan(3000);
  });

  it("stays linear in the number of operations", async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `query q${i} { catalogs { totalCount } }`).join(" ");
    const { messages, ms } = await timed(many, [depthLimit(12), costLimit(5000)]);
    expect(messages).toEqual([]);
    // ~0.6 s idle; the quadratic walk it guards against took 21 s. Headroom for a loaded CI machine.
    expect(ms).toBeLessThan(8000);
  });

  it("refuses fragments spread within fragments beyond the nesting limit", async () => {
    const { messages } = await timed(chain(150, 1), [depthLimit(12), costLimit(5000)]);
    expect(messages).toEqual(Array(2).fill(`fragments are spread within fragments more than ${MAX_SPREAD_NESTING} levels deep`));
    expect((await timed(chain(90, 1), [depthLimit(12), costLimit(5000)])).messages).toEqual([]);
  });
});

describe("introspectionWithoutAliases", () => {
  it("lets the standard introspection query through", async () => {
    expect(await check(getIntrospectionQuery(), [introspectionWithoutAliases, depthLimit(12), costLimit(5000)])).toEqual([]);
  });

  it("refuses aliases inside introspection, where they multiply the answer, through fragments too", async () => {
    const fanOut = `{ __schema { a: types { ...T } b: types { ...T } } } fragment T on __Type { x: fields { name } y: fields { name } }`;
    expect(await check(fanOut, [introspectionWithoutAliases])).toEqual([
      "introspection takes no aliases (`a: types`)",
      "introspection takes no aliases (`b: types`)",
      "introspection takes no aliases (`x: fields`)",
      "introspection takes no aliases (`y: fields`)",
    ]);
    expect(await check(`{ s: __schema { queryType { name } } }`, [introspectionWithoutAliases])).toEqual(["introspection takes no aliases (`s: __schema`)"]);
  });

  it("allows aliased root __type probes, as clients' feature detection sends them, up to a limit", async () => {
    const probe = `{ directive: __type(name: "__Directive") { fields { name args { name } } } field: __type(name: "__Field") { fields { name } } type: __type(name: "__Type") { fields { name } } }`;
    expect(await check(probe, [introspectionWithoutAliases])).toEqual([]);
    const many = `{ ${Array.from({ length: MAX_TYPE_PROBES + 1 }, (_, i) => `t${i}: __type(name: "Query") { name }`).join(" ")} }`;
    expect(await check(many, [introspectionWithoutAliases])).toEqual([`at most ${MAX_TYPE_PROBES} __type fields may be asked in one operation`]);
  });

  it("leaves aliases elsewhere alone, __typename included", async () => {
    expect(await check(`{ a: catalogs { totalCount kind: __typename } }`, [introspectionWithoutAliases])).toEqual([]);
  });
});

describe("literalDepthLimit", () => {
  const nested = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
  const importing = (depth: number) => `mutation { importReport(evaluationId: "e", envelope: ${nested(depth)}) { __typename } }`;

  it("refuses a list or object written into the query nested beyond the limit, once", async () => {
    expect(await check(importing(64), [literalDepthLimit(64)])).toEqual([]);
    expect(await check(importing(65), [literalDepthLimit(64)])).toEqual(["a value in the query is nested more than 64 levels deep; at most 64 are accepted"]);
    expect(await check(`mutation { importReport(evaluationId: "e", envelope: { a: { b: [{ c: 1 }] } }) { __typename } }`, [literalDepthLimit(3)])).toEqual([
      "a value in the query is nested more than 3 levels deep; at most 3 are accepted",
    ]);
  });
});
