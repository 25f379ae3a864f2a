// A field's answer is weighed as the bytes JSON sends of it: a string counted a byte a character
// (estimatedBytes' memory measure) weighed 100,000 control characters at 100,000 bytes while the
// answer sent 600,015, so one request could answer ~6x its budget.
import { expect, it } from "vitest";
import { parse, type FieldNode, type OperationDefinitionNode } from "graphql";
import { answerWeight } from "./answerWeight.js";
import { estimatedBytes } from "./estimatedBytes.js";

/** The first field of a query, as graphql-js hands it to a resolver. */
function field(query: string): FieldNode {
  const operation = parse(query).definitions[0] as OperationDefinitionNode;
  return operation.selectionSet.selections[0] as FieldNode;
}

const TEXTS: ReadonlyArray<[string, string]> = [
  ["ASCII", "a".repeat(100_000)],
  ["control characters", "\u0001".repeat(100_000)],
  ["quotes and newlines", '"\n'.repeat(50_000)],
  ["tabs, backslashes and vertical tabs", "\t\\\u000b".repeat(30_000)],
  ["CJK", "漢".repeat(100_000)],
  ["emoji", "😀".repeat(50_000)],
  ["lone surrogates", "\ud800x".repeat(50_000)],
];

/** Bytes JSON sends of `value`, in UTF-8. */
const sent = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

it.each(TEXTS)("weighs %s at least as JSON sends them, and not far above", (_, text) => {
  const weighed = answerWeight(text, [field("{ markdown }")], {});
  expect(weighed).toBeGreaterThanOrEqual(sent(text));
  expect(weighed).toBeLessThanOrEqual(sent(text) * 1.1 + 64);
});

it.each(TEXTS)("weighs %s inside a selected object and a JSON scalar as JSON sends them", (_, text) => {
  const value = { answer: text, data: { replay: { answer: text, tools: [text, 1.5, true, null] } } };
  const answered = { answer: text, data: value.data };
  const weighed = answerWeight(value, [field("{ run { answer data } }")], {});
  expect(weighed).toBeGreaterThanOrEqual(sent(answered));
  expect(weighed).toBeLessThanOrEqual(sent(answered) * 1.1 + 256);
});

it("leaves the terminal-run cache's memory measure a byte a character", () => {
  expect(estimatedBytes("\u0001".repeat(1_000))).toBe(1_000);
});
