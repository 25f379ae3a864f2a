import { describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { Catalog, catalogAggregate, catalogStream, handleCommand, importCatalogCommand } from "@verdict/domain";
import { createMemoryEventStore } from "@verdict/infra/eventstore";
import { diffCatalog, diffText, lastImport } from "./catalogDiff.js";

const yaml = (extra: string, refund = "Refund order 1042.") => `
catalog: desk
products:
  - key: triage
    sets:
      - key: smoke
        scenarios:
          - key: refund
            prompt: ${refund}
          - key: login
            prompt: I cannot log in.
${extra}`;

async function imported(text: string) {
  const store = createMemoryEventStore();
  const catalog = Catalog.parse(text);
  await handleCommand(store, catalogAggregate, catalogStream("demo", catalog.key), importCatalogCommand(catalog, "demo", { kind: "file", path: "desk.yaml" }), {
    clock: { now: () => new Date("2026-01-01T00:00:00Z") }, ids: { next: () => randomUUID() }, context: { tenant: "demo", actor: "test" },
  });
  return store;
}

describe("catalog import preview", () => {
  it("says every scenario is new for a catalog never imported", async () => {
    const catalog = Catalog.parse(yaml(""));
    const diff = diffCatalog(catalog, await lastImport(createMemoryEventStore(), "demo", "desk"));
    expect(diff).toMatchObject({ previousDigest: null, added: ["triage/smoke/refund", "triage/smoke/login"], updated: [], unchanged: [], removed: [] });
    expect(diffText(diff)).toContain(`catalog desk: digest ${catalog.digest} (new catalog)`);
  });

  it("finds added, updated, unchanged and removed scenarios against the last import", async () => {
    const store = await imported(yaml(""));
    const same = diffCatalog(Catalog.parse(yaml("")), await lastImport(store, "demo", "desk"));
    expect(same).toMatchObject({ added: [], updated: [], unchanged: ["triage/smoke/refund", "triage/smoke/login"], removed: [] });
    expect(diffText(same)).toContain("(unchanged)");
    const next = Catalog.parse(`
catalog: desk
products:
  - key: triage
    sets:
      - key: smoke
        scenarios:
          - key: refund
            prompt: Refund order 1043 please.
          - key: invoice
            prompt: Send my invoice.
`);
    const diff = diffCatalog(next, await lastImport(store, "demo", "desk"));
    expect(diff).toMatchObject({ added: ["triage/smoke/invoice"], updated: ["triage/smoke/refund"], unchanged: [], removed: ["triage/smoke/login"] });
    expect(diff.previousDigest).not.toBe(diff.digest);
    // Another tenant's catalog of the same key is not this one.
    expect(await lastImport(store, "other", "desk")).toBeNull();
  });
});
