// A status the read models should never hold is an internal error for the field that reads it,
// not a status the run does not have (PENDING, which the schema says is no longer given).
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Run } from "@verdict/projector";
import { startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
}, 60_000);
afterAll(async () => {
  await p?.close();
});

it("answers an unknown stored run status with an internal error for `status`, not PENDING", async () => {
  const row = { id: "run-odd", tenant: "acme", evaluationId: "e1", number: 1, origin: "engine", status: "PAUSED", external: false, models: [] } as unknown as Run;
  vi.spyOn(p.read.readModels, "getRun").mockResolvedValue(row);
  const res = await p.gql(p.keys.acmeRead, `query { run(id: "run-odd") { id status } }`);
  // `run` is nullable: its non-null `status` failing nulls the run, not the whole `data`.
  expect(res.body.data).toEqual({ run: null });
  expect(res.body.errors).toEqual([expect.objectContaining({ path: ["run", "status"], extensions: { code: "INTERNAL_SERVER_ERROR" } })]);
});
