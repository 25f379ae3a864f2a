// The projector (apps/projector/projection/applyBatch.ts) and the worker's dispatcher
// (apps/worker/dispatcher.ts) take ReplayRecorded and ResultScored at their current schema version
// as stored, without parsing them: they rely on every such event having been written by today's
// schema, defaults included. A change to either schema at the same version (a new key, a new
// default, a type widened) leaves stored events of the old shape under the same version number,
// which those fast paths then read as if they had the new one. This test holds each version's
// read schema to the description recorded for it in pairSchemas.json (its JSON Schema, as zod
// describes it; refinements zod cannot describe are not in it).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ReplayRecorded, ResultScored } from "./resultEvents.js";

const recorded = JSON.parse(readFileSync(new URL("./pairSchemas.json", import.meta.url), "utf8")) as Record<string, unknown>;

const CHANGED = (name: string) =>
  `${name}'s schema differs from the one recorded for its version in domain/events/pairSchemas.json. The projector and the worker's ` +
  `dispatcher take current-version ${name} events as stored, without parsing them, so stored events of the old shape would be read as the ` +
  `new one. Bump the version (defineEvent), add an upcaster from the old one, and record the new version's description in ` +
  `pairSchemas.json beside the old (never edit a recorded one). If only zod's description of the same schema changed (a zod upgrade), ` +
  `compare the two and record it again.`;

describe("pair event schemas at their recorded versions", () => {
  it.each([ReplayRecorded, ResultScored])("$type at its current version reads what it read when that version was recorded", (definition) => {
    const key = `${definition.type}@v${definition.version}`;
    expect(Object.keys(recorded), `${key} has no description in domain/events/pairSchemas.json: record it (a new version, with its upcaster)`).toContain(key);
    expect(z.toJSONSchema(definition.schema, { io: "input" }), CHANGED(definition.type)).toEqual(recorded[key]);
  });
});
