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
    expect(diff).toMatchObject({
      previousDigest: null,
      added: ["catalog desk", "product triage", "set triage/smoke", "scenario triage/smoke/refund", "scenario triage/smoke/login"],
      updated: [], unchanged: [], removed: [],
    });
    expect(diffText(diff)).toContain(`catalog desk: digest ${catalog.digest} (new catalog)`);
  });

  it("finds added, updated, unchanged and removed scenarios against the last import", async () => {
    const store = await imported(yaml(""));
    const same = diffCatalog(Catalog.parse(yaml("")), await lastImport(store, "demo", "desk"));
    expect(same).toMatchObject({ added: [], updated: [], removed: [] });
    expect(same.unchanged).toContain("scenario triage/smoke/login");
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
    expect(diff).toMatchObject({
      added: ["scenario triage/smoke/invoice"],
      updated: ["scenario triage/smoke/refund"],
      unchanged: ["catalog desk", "product triage", "set triage/smoke"],
      removed: ["scenario triage/smoke/login"],
    });
    expect(diffText(diff)).toContain("updated (1): scenario triage/smoke/refund (prompt)");
    expect(diff.previousDigest).not.toBe(diff.digest);
    // Another tenant's catalog of the same key is not this one.
    expect(await lastImport(store, "other", "desk")).toBeNull();
  });

  // Only scenarios were compared: each of these previewed as "nothing changed", yet the import
  // recorded a new document (and the set's evaluation took the new judge or criteria).
  it("reports a set's judge, criteria and threshold, an empty set, names and order, not only scenarios", async () => {
    const store = await imported(yaml(""));
    const previous = await lastImport(store, "demo", "desk");
    const preview = (text: string) => {
      const diff = diffCatalog(Catalog.parse(text), previous);
      expect(diff.digest, text).not.toBe(diff.previousDigest);
      return diff;
    };
    const judged = preview(yaml("").replace("      - key: smoke\n", "      - key: smoke\n        judge: { kind: llm, model: gpt-5 }\n"));
    expect(judged).toMatchObject({ added: [], updated: ["set triage/smoke"], removed: [], changed: { "set triage/smoke": ["judge"] } });
    expect(diffText(judged)).toContain("updated (1): set triage/smoke (judge)");
    const criteria = preview(yaml("").replace("      - key: smoke\n", "      - key: smoke\n        criteria: [{ key: resolution, type: llm_judge, config: { prompt: \"Was it resolved?\" } }]\n"));
    expect(criteria).toMatchObject({ updated: ["set triage/smoke"], changed: { "set triage/smoke": ["criteria"] } });
    const empty = yaml("      - key: nightly\n        scenarios: []\n");
    expect(preview(empty)).toMatchObject({ added: ["set triage/nightly"], updated: [], removed: [] });
    const withEmpty = await imported(empty);
    const renamed = diffCatalog(Catalog.parse(yaml("      - key: weekly\n        scenarios: []\n")), await lastImport(withEmpty, "demo", "desk"));
    expect(renamed).toMatchObject({ added: ["set triage/weekly"], updated: [], removed: ["set triage/nightly"] });
    expect(diffCatalog(Catalog.parse(yaml("")), await lastImport(withEmpty, "demo", "desk"))).toMatchObject({ added: [], updated: [], removed: ["set triage/nightly"] });
    expect(preview(`name: Help desk\n${yaml("")}`)).toMatchObject({ updated: ["catalog desk"], changed: { "catalog desk": ["name"] } });
    const swapped = yaml("").replace(/( {10}- key: refund\n.*\n)( {10}- key: login\n.*\n)/, "$2$1");
    expect(preview(swapped)).toMatchObject({
      added: [], removed: [],
      updated: ["set triage/smoke", "scenario triage/smoke/login", "scenario triage/smoke/refund"],
      changed: { "set triage/smoke": ["scenario order"], "scenario triage/smoke/login": ["position"] },
    });
  });

  it("calls the document changed when its digest is new but no part differs, and nothing changed for the same digest", async () => {
    const previous = await lastImport(await imported(yaml("")), "demo", "desk");
    const other = diffCatalog(Catalog.parse(yaml("")), { ...previous!, digest: "0".repeat(64) });
    expect(other).toMatchObject({ updated: ["catalog desk"], changed: { "catalog desk": ["canonical document"] } });
    const same = diffCatalog(Catalog.parse(yaml("")), { ...previous!, products: [] });
    expect(same).toMatchObject({ added: [], updated: [], removed: [] });
  });
});
