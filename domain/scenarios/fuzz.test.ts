// Fuzzing the parsers (issue 3, bad input): random and mutated inputs must either give
// scenarios or throw the parser's own error type — never a TypeError, a hang or a stack overflow.
import { describe, expect, it } from "vitest";
import { fixture } from "./fixtures.testing.js";
import { mutate, pick, randomText, randomValue, seededRandom } from "./fuzz.testing.js";
import { Catalog, InvalidDocument, ParseError, ScenarioParser, Suite } from "./index.js";

const SEED = 20261130;
const FIXTURES = [
  "catalogs/support_desk.yml",
  "catalogs/support_desk.local.yml",
  "catalogs/billing_agent.yml",
  "suites/support_bot.yml",
  "suites/support_bot.acme.yml",
  "suites/triage_agent.yml",
  "pastes/support_paste.md",
  "pastes/triage_paste.json",
].map(fixture);

type Outcome = "ok" | "rejected";

function attempt(run: () => unknown, own: new (...args: never[]) => Error): Outcome {
  try {
    run();
    return "ok";
  } catch (error) {
    if (error instanceof own) return "rejected";
    throw new Error(`unexpected ${(error as Error)?.constructor?.name}: ${(error as Error)?.message}`, { cause: error });
  }
}

const PARSERS: Array<(input: string) => Outcome> = [
  (input) => attempt(() => ScenarioParser.scenarios(input), ParseError),
  (input) => attempt(() => Catalog.parse(input, { name: "fuzz" }).digest, InvalidDocument),
  (input) => attempt(() => Suite.fromDocuments(input).allScenarios(), InvalidDocument),
];

function throughEveryParser(input: string, outcomes: Record<Outcome, number>): void {
  for (const parser of PARSERS) outcomes[parser(input)] += 1;
}

/** Most cases mutate a window of a fixture (short, so 10,000 run in seconds); some the whole file. */
function fixtureInput(random: () => number): string {
  const lines = pick(random, FIXTURES).split("\n");
  if (random() < 0.04) return lines.join("\n");
  const start = random() < 0.5 ? 0 : Math.floor(random() * lines.length);
  return lines.slice(start, start + 3 + Math.floor(random() * 12)).join("\n");
}

describe("parser fuzzing", () => {
  it("12,000 random and mutated texts: scenarios or the parser's own error", () => {
    const random = seededRandom(SEED);
    const outcomes: Record<Outcome, number> = { ok: 0, rejected: 0 };
    let slowest = 0;
    for (let i = 0; i < 12_000; i += 1) {
      // Each case goes to one parser in turn: 4,000 per parser, a third of them random text.
      const input = i % 9 < 3 ? randomText(random) : mutate(random, fixtureInput(random));
      const start = performance.now();
      try {
        outcomes[PARSERS[i % 3](input)] += 1;
      } catch (error) {
        throw new Error(`case ${i} (seed ${SEED}) failed for input ${JSON.stringify(input)}: ${(error as Error).message}`);
      }
      slowest = Math.max(slowest, performance.now() - start);
    }
    expect(outcomes.ok).toBeGreaterThan(1_000);
    expect(outcomes.rejected).toBeGreaterThan(1_000);
    expect(slowest).toBeLessThan(1_000);
  });

  it("2,000 random parsed documents for Suite and Catalog", () => {
    const random = seededRandom(SEED + 1);
    for (let i = 0; i < 2_000; i += 1) {
      const docs = [randomValue(random), randomValue(random)];
      attempt(() => Suite.fromDocuments(...docs).allScenarios(), InvalidDocument);
      attempt(() => new Catalog(...docs).toYaml(), InvalidDocument);
    }
  });

  it.each([
    ["deep JSON", "[".repeat(20_000) + "]".repeat(20_000)],
    ["deep flow YAML", `suite: s\ngroups: ${"[".repeat(20_000)}${"]".repeat(20_000)}`],
    ["deep block YAML", `catalog: c\nparams:\n${Array.from({ length: 3_000 }, (_, i) => `${" ".repeat(i + 1)}a${i}:`).join("\n")} x`],
    ["an alias bomb", `suite: s\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ngroups: []`],
  ])("survives %s", (_name, input) => {
    const outcomes: Record<Outcome, number> = { ok: 0, rejected: 0 };
    throughEveryParser(input, outcomes);
    expect(outcomes.ok + outcomes.rejected).toBe(3);
  });
});
