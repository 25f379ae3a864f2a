// `node scripts/verdict.mjs CMD [flags]`: any `verdict` command from the bundle `npm start` runs
// (apps/cli/main.ts bundled by scripts/bundle.mjs into .build/cli/verdict.mjs, about half a
// second, every time, so it is never stale), in this process on plain node. The form for CI:
// this process is the CLI, so a cancel's SIGTERM (or Ctrl-C) ends `verdict run` at once (exit
// 143, or 130), writing no --out. `npx tsx apps/cli/main.ts run` is not: npx exits on SIGTERM
// without passing it on, and the CLI under it (sh -c -> tsx -> node, reparented to init) ran on,
// calling the agent, and wrote a complete-looking report after the job was cancelled.
import { pathToFileURL } from "node:url";
import { bundle } from "./bundle.mjs";

const file = await bundle("apps/cli/main.ts", ".build/cli/verdict.mjs");
await import(pathToFileURL(file).href);
