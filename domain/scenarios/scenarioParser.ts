// ScenarioParser (reference-core §2): pasted text, JSON or a grouped YAML/JSON suite ->
// scenario attributes. Malformed input is a ParseError naming the line or path; nothing
// partial is returned.
import { checkKnownOptions, checkOptionsObject } from "../support/index.js";
import { ParseError } from "./errors.js";
import { tryParseJson } from "./jsonText.js";
import { readJsonEntries } from "./jsonReader.js";
import { assertDocumentSize, assertScenarioCount } from "./limits.js";
import { LINE_BREAK, readLines } from "./lineReader.js";
import type { ParsedScenario, ReadEntry } from "./parsedScenario.js";
import { Scenario } from "./scenario.js";
import { assignKeys, keyPrefixOf, type KeyOptions } from "./scenarioKeys.js";
import { readSuiteDocument } from "./suiteDocument.js";
import { Suite } from "./suite.js";
import { readYaml } from "./yamlText.js";

export interface ParseOptions extends KeyOptions {
  /** Keep production-only scenarios (default true, as Suite does). */
  includeProductionOnly?: boolean;
}

/** A scenario of the text with the line it was read from: null when read from JSON or YAML. */
export interface LocatedScenario {
  scenario: ParsedScenario;
  line: number | null;
}

const PARSE_OPTIONS: Record<keyof ParseOptions, true> = { reservedKeys: true, keyPrefix: true, includeProductionOnly: true };
const PARSE_OPTION_NAMES = Object.keys(PARSE_OPTIONS);

const SUITE_LINE = /^(?:suite|groups):(?:\s|$)/m;

function parse(text: string, options: ParseOptions = {}): ParsedScenario[] {
  return located(text, options).map(({ scenario }) => scenario);
}

/** parse, each scenario with its line, so what is refused later can still point into the text. */
function located(text: string, options: ParseOptions = {}): LocatedScenario[] {
  // `key_prefix` (the Ruby spelling) was ignored and the keys made without the prefix.
  checkOptionsObject("ScenarioParser", options, "{ keyPrefix, reservedKeys, includeProductionOnly }");
  options ??= {};
  checkKnownOptions("ScenarioParser", options, PARSE_OPTION_NAMES);
  if (typeof text !== "string") throw new ParseError("scenarios text must be a string");
  assertDocumentSize(text, ParseError);
  keyPrefixOf(options.keyPrefix);
  const body = trimmedKeepingLines(text);
  if (!body) return [];
  const entries = read(body);
  assertScenarioCount(entries.length, ParseError, "paste");
  const parsed = assignKeys(entries, options).map((scenario, i) => ({ scenario, line: entries[i].line ?? null }));
  return options.includeProductionOnly === false ? parsed.filter(({ scenario }) => !scenario.production_only) : parsed;
}

/**
 * The text trimmed, but for the line breaks before its first character: a line number then
 * counts from the text's own first line (blank lines pasted above the scenarios shifted every
 * line an error named).
 */
function trimmedKeepingLines(text: string): string {
  const body = text.trim();
  if (!body) return "";
  const before = text.slice(0, text.length - text.trimStart().length);
  return "\n".repeat(before.split(LINE_BREAK).length - 1) + body;
}

function scenarios(text: string, options: ParseOptions = {}): Scenario[] {
  return parse(text, options).map((entry) => Scenario.fromParsed(entry));
}

function read(body: string): ReadEntry[] {
  const first = body.trimStart()[0];
  if (first === "[" || first === "{") {
    const json = tryParseJson(body, ParseError);
    // Text that only looks like JSON is lines (reference-core §2.3), whatever a later line says.
    if (json === undefined) return readLines(body);
    const grouped = json !== null && typeof json === "object" && !Array.isArray(json) && "groups" in json;
    return grouped ? readSuite(json) : readJsonEntries(json);
  }
  if (SUITE_LINE.test(body)) return readSuite(readYaml(body, ParseError, "invalid evaluation suite YAML: "));
  return readLines(body);
}

/** A grouped document goes through Suite, so the parser and Suite.load agree on layering. */
function readSuite(doc: unknown): ReadEntry[] {
  readSuiteDocument(doc, ParseError, { requireGroups: true });
  return new Suite([doc]).allScenarios().map((scenario) => ({
    prompt: scenario.prompt,
    group: scenario.group,
    group_name: scenario.groupName,
    key: scenario.key || null,
    notes: scenario.notes,
    expectations: scenario.expectations,
    production_only: scenario.productionOnly,
  }));
}

export const ScenarioParser = { parse, located, scenarios, ParseError } as const;
