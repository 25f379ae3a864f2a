import { describe, expect, it } from "vitest";
import { Catalog } from "../../scenarios/catalog.js";
import { storableCatalog } from "./storableCatalog.js";

describe("storableCatalog's key", () => {
  it("says a key is ASCII letters, and how to write one in another script, when refusing 多言語", () => {
    const refusal = (() => {
      try {
        storableCatalog(Catalog.parse("catalog: 多言語\nproducts: []\n"));
      } catch (error) {
        return (error as Error).message;
      }
      return "not refused";
    })();
    expect(refusal).toContain("a key is 1-100 ASCII letters (a-z, A-Z), digits");
    expect(refusal).toContain("`catalog: tagengo` for 多言語");
  });

  it("gives no such hint for an ASCII key refused by another rule", () => {
    expect(() => storableCatalog(Catalog.parse("catalog: a--b\nproducts: []\n"))).toThrow(/without "--"$/);
  });
});
