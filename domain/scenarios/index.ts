// Public surface of scenarios: Scenario, ScenarioParser (+ ParseError), Suite, Catalog.
//
// Pasted text (lines, `# Heading` groups, `| tools: a | contains: x` options), JSON or a
// grouped suite document -> attribute objects with the guide's snake_case keys:
//   ScenarioParser.parse("# Orders\nWhere is my order 4821? | tools: lookup_order",
//     { reservedKeys: ["orders_1"], keyPrefix: "batch2" })
//   // => [{ prompt: "Where is my order 4821?", group: "Orders", key: "batch2_orders_1", ... }]
//   ScenarioParser.scenarios(text, { includeProductionOnly: false })   // => Scenario[]
//
// A grouped suite, later files layering over earlier ones by key:
//   Suite.load("evals/support_bot.yml", "evals/acme/support_bot.yml")
//     .scenarios({ groups: ["orders"], includeProductionOnly: false })
//
// A catalog (products -> sets -> scenarios), its canonical text and digest:
//   const catalog = Catalog.load("evals/support_desk.yml", "evals/support_desk.local.yml");
//   catalog.set("triage", "smoke").scenarios;          // Scenario[]
//   catalog.suiteFor("triage", "smoke").name;          // "support_desk/triage/smoke"
//   catalog.toYaml(); catalog.digest;                  // canonical YAML, its SHA-256 hex
//
// Malformed input throws ParseError (the parser) or InvalidDocument (Suite, Catalog), both
// ScenarioInputError with `line` / `path` and `code: "validation"`; a missing file, product,
// set or scenario throws NotFound (`code: "not_found"`).
export * from "./scenario.js";
export { ScenarioParser, type LocatedScenario, type ParseOptions } from "./scenarioParser.js";
export type { ParsedScenario } from "./parsedScenario.js";
export { ParseError, InvalidDocument, located, NotFound, ScenarioInputError, type Where } from "./errors.js";
export { Suite, type SuiteOptions, type SuiteSelection } from "./suite.js";
export type { SuiteGroup } from "./suiteDocument.js";
export { regexPattern, patternProblem, type RegexPattern } from "./pattern.js";
export { expectationKeyProblem } from "./expectationKeys.js";
export { MAX_DOCUMENT_BYTES, MAX_SCENARIOS } from "./limits.js";
export { cannotReadRule, notUtf8At, notUtf8Rule, NotRegularFile, readUtf8AtMost, type BoundedText, type NotUtf8 } from "./documentFiles.js";
/** The one YAML reader, shared with the scripted agent's and judge's scripts (infra/scripting) and the CLI's tools file. */
export { readYaml, type YamlDialect } from "./yamlText.js";
export { Catalog, type CatalogOptions, type CatalogSelection } from "./catalog.js";
export { Product, ScenarioSet } from "./catalogParts.js";
