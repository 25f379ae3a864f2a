// The EntitySchemas describe the tables the committed migrations create: MikroORM's schema diff
// finds no table or column to add, drop or rename (it only notices defaults and indexes, which
// the entities do not declare), and entities load projected rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "@verdict/infra";
import { createProjector } from "../projector.js";
import { openTestReadModels, type OrmReadModels } from "../testing/testReadModels.js";
import { beginRun, commandDeps, createEvaluation, GPT } from "../testing/runFixture.js";
import { EvaluationEntity, ResultEntity, RunEntity } from "./entities.js";

let read: OrmReadModels;
beforeAll(async () => {
  read = await openTestReadModels();
});
afterAll(async () => {
  await read?.close();
});

describe("read-model entities", () => {
  it("match the migrated tables column for column", async () => {
    const diff = await read.orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
    const structural = diff.split("\n").filter((line) => /create table|add column|drop column|rename column|drop table/i.test(line));
    // projector_migrations belongs to the migrator, not to an entity
    expect(structural).toEqual(['drop table if exists "projector_migrations" cascade;']);
  });

  it("load projected rows", async () => {
    const store = createMemoryEventStore();
    const deps = commandDeps("acme");
    await createEvaluation(store, deps, "ent1", ["a"]);
    await beginRun(store, deps, "ent1", "ent-run", [GPT]);
    await createProjector({ store, orm: read.orm, name: "entities" }).catchUp();
    const em = read.orm.em.fork();
    const evaluation = await em.findOneOrFail(EvaluationEntity, { id: "ent1", tenant: "acme" });
    expect(evaluation.createdAt).toBeInstanceOf(Date);
    expect(evaluation.compareModels).toEqual([]);
    const run = await em.findOneOrFail(RunEntity, { id: "ent-run" });
    expect(run).toMatchObject({ status: "RUNNING", total: 1, agentInputTokens: 0, models: [GPT] });
    const results = await em.find(ResultEntity, { runId: "ent-run" }, { orderBy: { n: "asc" } });
    expect(results.map((r) => [r.scenarioKey, r.modelLabel, r.status, r.scenario])).toEqual([["a", GPT.label, "pending", expect.objectContaining({ key: "a" })]]);
  });
});
