// The exit code `verdict` gives the projector's refusals of what the read database holds.
import { expect, it } from "vitest";
import { ReadModelsAheadOfLogError, ReadModelsOfAnotherLogError } from "@verdict/projector";
import { EXIT, exitCodeOf } from "./errors.js";

it("read models of another log, or ahead of this one (the log restored from an older backup), are a conflict with what is stored: exit 3", () => {
  expect(exitCodeOf(new ReadModelsOfAnotherLogError("a", "b"))).toBe(EXIT.conflict);
  expect(exitCodeOf(new ReadModelsAheadOfLogError("read-models", { commit: 5903n, prepare: 99n }, { commit: 5818n, prepare: 52n }))).toBe(EXIT.conflict);
});
