// Inputs that used to be accepted and then failed later, far from where they were given (an
// `internal error`, a refusal naming a field the caller never sent, a silently different run):
// each is refused where it is given, with VALIDATION naming the field and the rule, and nothing
// is appended.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;

beforeAll(async () => {
  p = await startPlatform();
}, 60_000);

afterAll(async () => {
  await p?.close();
});

/** Sends `query` and expects one VALIDATION error with `message`, the event log left as it was. */
async function refused(query: string, variables: Record<string, unknown>, message: string | RegExp): Promise<{ message: string; extensions: Record<string, unknown> }> {
  const before = (await p.store.readAll({ limit: 10_000 })).length;
  const res = await p.gql(p.keys.acmeWrite, query, variables);
  expect(res.body.errors?.[0]?.extensions?.code, JSON.stringify(res.body)).toBe("VALIDATION");
  if (typeof message === "string") expect(res.body.errors[0].message).toBe(message);
  else expect(res.body.errors[0].message).toMatch(message);
  expect((await p.store.readAll({ limit: 10_000 })).length).toBe(before);
  return res.body.errors[0];
}

const IMPORT = `mutation ($yaml: String!) { importCatalog(yaml: $yaml) { key } }`;

describe("importCatalog", () => {
  it("refuses a recursive alias with its line instead of an internal error", async () => {
    await refused(IMPORT, { yaml: "catalog: c8\na: &a [*a]" }, "line 2: the catalog is not valid YAML: alias *a is inside the node its anchor &a names, so the value would contain itself");
  });
});
