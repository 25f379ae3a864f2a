import { describe, expect, it } from "vitest";
import { listPage } from "./paging.js";

const keys = (page: { edges: { node: { n: number } }[] }) => page.edges.map((edge) => edge.node.n);

describe("listPage", () => {
  it("answers the whole list without `first`, and pages through it in order with `after`", () => {
    const items = [1, 2, 3, 4, 5].map((n) => ({ n }));
    expect(keys(listPage(items, {}, "items"))).toEqual([1, 2, 3, 4, 5]);
    const first = listPage(items, { first: 2 }, "items");
    expect(first).toMatchObject({ totalCount: 5, pageInfo: { hasNextPage: true } });
    const second = listPage(items, { first: 2, after: first.pageInfo.endCursor }, "items");
    const third = listPage(items, { first: 2, after: second.pageInfo.endCursor }, "items");
    expect([keys(first), keys(second), keys(third)]).toEqual([[1, 2], [3, 4], [5]]);
    expect(third.pageInfo).toEqual({ hasNextPage: false, endCursor: third.edges[0].cursor });
  });

  it("goes on after the last item shown by its key, even when items came into the list before it since", () => {
    const before = [{ n: 1 }, { n: 4 }, { n: 7 }];
    const page = listPage(before, { first: 2 }, "results", (item) => item.n);
    // Pairs 2 and 5 were scored into the filter between the two reads.
    const now = [{ n: 1 }, { n: 2 }, { n: 4 }, { n: 5 }, { n: 7 }];
    expect(keys(listPage(now, { after: page.pageInfo.endCursor }, "results", (item) => item.n))).toEqual([5, 7]);
  });

  it("refuses a negative or fractional `first`, and a cursor it did not give out or another list's, naming the argument", () => {
    for (const first of [-1, 1.5]) expect(() => listPage([], { first }, "items")).toThrow(expect.objectContaining({ code: "validation", field: "first" }));
    const another = listPage([{ n: 1 }, { n: 2 }], { first: 1 }, "matrix").pageInfo.endCursor!;
    const cursor = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString("base64url");
    for (const after of ["nope", cursor(["x"]), cursor([3]), cursor(["items", -5]), another]) {
      expect(() => listPage([{ n: 1 }], { after }, "items")).toThrow(expect.objectContaining({ code: "validation", field: "after" }));
    }
  });
});
