// A test file's read models with vitest's hooks (kept apart from testReadModels.ts, which the
// package index exports to other packages' tests and which must not load vitest).
import { afterAll, beforeAll, beforeEach } from "vitest";
import { openTestReadModels, resetReadModels, type OrmReadModels } from "./testReadModels.js";

/**
 * Opened once before the file's tests, emptied before each (before the file's own beforeEach
 * hooks registered after this call), closed after; read through the function returned, inside
 * tests and hooks.
 */
export function useTestReadModels(): () => OrmReadModels {
  let read: OrmReadModels | undefined;
  beforeAll(async () => {
    read = await openTestReadModels();
  });
  afterAll(async () => {
    await read?.close();
  });
  beforeEach(async () => {
    await resetReadModels(read!);
  });
  return () => read!;
}
