// Public surface of scenarios: Scenario, ScenarioParser (+ ParseError), Suite, Catalog.
export * from "./scenario.js";
export { ScenarioParser, type ParseOptions } from "./scenarioParser.js";
export type { ParsedScenario } from "./parsedScenario.js";
export { ParseError, InvalidDocument, NotFound, ScenarioInputError, type Where } from "./errors.js";
export { Suite, type SuiteOptions, type SuiteSelection } from "./suite.js";
export type { SuiteGroup } from "./suiteDocument.js";
export { regexPattern, patternProblem, type RegexPattern } from "./pattern.js";
export { MAX_DOCUMENT_BYTES, MAX_SCENARIOS } from "./limits.js";
export { Catalog, type CatalogOptions, type CatalogSelection } from "./catalog.js";
export { Product, ScenarioSet } from "./catalogParts.js";
