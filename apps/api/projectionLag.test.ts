// A mutation's write happens before it waits for the read models; when they do not catch up
// (projector stopped or far behind), the answer says the write was recorded and names it, so
// a client does not send it again (a second createEvaluation is a second evaluation).
import { afterAll, beforeAll, expect, it } from "vitest";
import { readWholeStream, evaluationStream } from "@verdict/domain";
import { startPlatform, type Platform } from "./testing/harness.js";

let p: Platform;
beforeAll(async () => {
  p = await startPlatform({ projectionWaitMs: 300 });
}, 60_000);
afterAll(async () => {
  await p?.close();
});

it("answers UNAVAILABLE naming what was recorded when the read models lag behind a write", async () => {
  await p.projector.stop();
  const res = await p.gql(p.keys.acmeWrite, `mutation { createEvaluation(input: { agent: "A", name: "Orders", scenariosText: "Where is my order?" }) { evaluationId } }`);
  const error = res.body.errors[0];
  expect(error.extensions.code).toBe("UNAVAILABLE");
  const [, evaluationId] = /^evaluation (\S+) was recorded, but the read models have not caught up/.exec(error.message) ?? [];
  expect(evaluationId).toBeTruthy();
  expect((await readWholeStream(p.store, evaluationStream(evaluationId))).map((e) => e.type)).toContain("EvaluationCreated");
  p.projector.start();
  const read = await p.gql(p.keys.acmeWrite, `mutation ($id: ID!) { mergeScenarios(evaluationId: $id, scenariosText: "Cancel my order") { added } }`, { id: evaluationId });
  expect(read.body.data.mergeScenarios.added).toHaveLength(1);
});
