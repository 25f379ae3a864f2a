import { describe, expect, it } from "vitest";
import { DomainError } from "../../events/domainError.js";
import { catalogAggregate } from "./catalogAggregate.js";
import { given } from "../testing/givenWhenThen.js";
import { catalogImport, DIGEST_A, DIGEST_B } from "../testing/fixtures.js";
import type { EventInput } from "../../events/registry.js";

const imported = (digest = DIGEST_A): EventInput<"CatalogImported"> => {
  const { type: _t, ...data } = catalogImport(digest);
  return { type: "CatalogImported", data: { ...data, scenario_count: 1 } };
};

describe("catalog decider", () => {
  it("given nothing, when ImportCatalog, then CatalogImported with the scenario count", () => {
    const [event] = given(catalogAggregate, []).when(catalogImport());
    expect(event.type).toBe("CatalogImported");
    expect(event.data).toMatchObject({ key: "support_desk", digest: DIGEST_A, scenario_count: 1, tenant: "acme" });
  });

  it("given an import, when the identical catalog (same digest) is imported again, then nothing", () => {
    expect(given(catalogAggregate, [imported()]).when(catalogImport())).toEqual([]);
  });

  it("given an import, when a changed catalog is imported, then CatalogImported", () => {
    const events = given(catalogAggregate, [imported()]).when(catalogImport(DIGEST_B, ["a", "b"]));
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ digest: DIGEST_B, scenario_count: 2 });
  });

  it("given a removed catalog, when the same document is imported, then it is imported again", () => {
    const removed = { type: "CatalogRemoved" as const, data: { tenant: "acme", key: "support_desk", digest: DIGEST_A } };
    expect(given(catalogAggregate, [imported(), removed]).when(catalogImport())).toHaveLength(1);
  });

  it("refuses a document over 2 MB", () => {
    const command = { ...catalogImport(), canonical_yaml: "x".repeat(2_097_153) };
    expect(() => given(catalogAggregate, []).when(command)).toThrow("Import refused: the catalog document is 2097153 bytes, over the 2 MB limit");
  });

  it("counts the document's UTF-8 bytes, not its characters, against 2 MB, and takes exactly 2 MB", () => {
    // The canonical document the import stores: written again from the parsed catalog, it need not be the size of the text sent.
    const over = { ...catalogImport(), canonical_yaml: "é".repeat(1_048_577) };
    expect(() => given(catalogAggregate, []).when(over)).toThrow("Import refused: the catalog document is 2097154 bytes, over the 2 MB limit");
    const full = { ...catalogImport(), canonical_yaml: "é".repeat(1_048_576) };
    expect(given(catalogAggregate, []).when(full)).toHaveLength(1);
  });

  it("refuses more than 2000 scenarios", () => {
    const keys = Array.from({ length: 2001 }, (_, i) => `s${i}`);
    expect(() => given(catalogAggregate, []).when(catalogImport(DIGEST_A, keys))).toThrow("Import refused: the catalog holds 2001 scenarios, over the 2000 limit");
  });

  it("refuses a path-like key, naming the field", () => {
    try {
      given(catalogAggregate, []).when({ ...catalogImport(), key: "../etc" });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).field).toBe("key");
      expect((e as DomainError).code).toBe("validation");
    }
  });

  it("given an import, when RemoveCatalog, then CatalogRemoved with the digest it had", () => {
    expect(given(catalogAggregate, [imported()]).when({ type: "RemoveCatalog", tenant: "acme", key: "support_desk" })).toEqual([
      { type: "CatalogRemoved", data: { tenant: "acme", key: "support_desk", digest: DIGEST_A } },
    ]);
  });

  it("given a removed catalog, when RemoveCatalog, then not found (removed once)", () => {
    const removed = { type: "CatalogRemoved" as const, data: { tenant: "acme", key: "support_desk", digest: DIGEST_A } };
    expect(() => given(catalogAggregate, [imported(), removed]).when({ type: "RemoveCatalog", tenant: "acme", key: "support_desk" })).toThrow(
      expect.objectContaining({ code: "not_found", field: "key" }),
    );
  });

  it("numbers every import, one after a removal too: the syncs it drives are ordered by that number", () => {
    const removed = { type: "CatalogRemoved" as const, data: { tenant: "acme", key: "support_desk", digest: DIGEST_B } };
    expect(given(catalogAggregate, [imported(), imported(DIGEST_B)]).state.imports).toBe(2);
    expect(given(catalogAggregate, [imported(), imported(DIGEST_B), removed, imported()]).state.imports).toBe(3);
  });

  it("given nothing, when RemoveCatalog, then not found", () => {
    expect(() => given(catalogAggregate, []).when({ type: "RemoveCatalog", tenant: "acme", key: "nope" })).toThrow(
      expect.objectContaining({ code: "not_found", message: 'No catalog "nope"' }),
    );
  });
});
