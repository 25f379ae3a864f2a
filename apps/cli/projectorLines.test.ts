import { expect, it } from "vitest";
import { bufferIo } from "./io.js";
import { startProjectorLines } from "./projectorLines.js";

it("start's projector says each failure its loop tries again after, as the standalone projector does, once per 30 s", () => {
  const io = bufferIo();
  const { onRetry } = startProjectorLines(io);
  const lost = new Error(`insert into "runs" ("id") values ('r1') - terminating connection due to administrator command`);
  onRetry?.(lost);
  onRetry?.(lost);
  expect(io.stderr).toEqual(["[projector] terminating connection due to administrator command; trying again"]);
});
