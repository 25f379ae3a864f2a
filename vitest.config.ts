import { defineConfig } from "vitest/config";

// One config for every workspace. VERDICT_TEST_SCOPE narrows the run:
//   unit -> *.test.ts only (no services needed)
//   all  -> unit + integration (*.int.test.ts) + end-to-end (*.e2e.test.ts)
const scope = process.env.VERDICT_TEST_SCOPE ?? "all";
const serviceSuites = ["**/*.int.test.ts", "**/*.e2e.test.ts"];

export default defineConfig({
  resolve: {
    // Two copies of graphql in one process break schema identity (STACK.md).
    alias: { graphql: "graphql/index.js" },
  },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/.build/**", "**/.verdict/**", ...(scope === "unit" ? serviceSuites : [])],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites share one PostgreSQL and one broker; each file uses its own database/topics.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
