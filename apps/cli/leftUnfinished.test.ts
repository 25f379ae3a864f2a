// Which runs `verdict start` names as left unfinished by an earlier start: decided by what was
// going when this start began, not by a run's completedAt against this process's clock. Before, a
// run that an earlier start (its clock ahead) had finished cleanly "after" this start began was
// named left unfinished, and its reports written again.
import { expect, it } from "vitest";
import { leftUnfinished, runsGoingNow, type ListedRun } from "./leftUnfinished.js";

/** As the API lists it, with the completedAt the earlier start's clock gave its completion. */
const run = (number: number, status: string, external = false, completedAt: string | null = null): ListedRun => ({ id: `r${number}`, number, status, external, completedAt } as ListedRun);

it("a run an earlier start finished is not named, however far ahead that start's clock was", () => {
  // Completed an hour past this start's beginning by the earlier start's clock: it was not going when this start began.
  const ahead = new Date(Date.now() + 3_600_000).toISOString();
  expect(leftUnfinished([run(1, "COMPLETED", false, ahead), run(2, "FAILED", false, ahead)], new Set())).toEqual({ engine: [], external: [] });
});

it("a run going when this start began is named, still going or finished since by this start's worker", () => {
  const going = new Set(["r1", "r2"]);
  expect(leftUnfinished([run(1, "COMPLETED"), run(2, "RUNNING"), run(3, "PENDING"), run(4, "COMPLETED")], going).engine).toEqual([
    { id: "r1", number: 1, status: "COMPLETED" },
    { id: "r2", number: 2, status: "RUNNING" },
    { id: "r3", number: 3, status: "PENDING" },
  ]);
});

it("an external run still going is its host's, listed apart; one that ended is neither", () => {
  expect(leftUnfinished([run(1, "RUNNING", true), run(2, "COMPLETED", true)], new Set(["r1", "r2"]))).toEqual({
    engine: [],
    external: [{ id: "r1", number: 1, status: "RUNNING" }],
  });
});

it("the runs going are read from the read models: PENDING and RUNNING ones", async () => {
  const asked: unknown[] = [];
  const sql = {
    async execute<T>(statement: string, params?: unknown[]): Promise<T[]> {
      asked.push(statement, params);
      return [{ id: "r1" }, { id: "r2" }] as T[];
    },
  };
  expect(await runsGoingNow(sql)).toEqual(new Set(["r1", "r2"]));
  expect(asked).toEqual(["SELECT id FROM runs WHERE status IN (?, ?)", ["PENDING", "RUNNING"]]);
});
