// `npm run bench`: runs every bench/*.bench.ts in its own process (so each reports its own
// peak RSS), or only those whose name contains one of the words given on the command line.
//   npm run bench -- catalog report
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((name) => name.endsWith(".bench.ts"))
  .filter((name) => filters.length === 0 || filters.some((word) => name.includes(word)))
  .sort();

let failed = 0;
for (const name of benches) {
  console.log(`\n=== ${name}`);
  const run = spawnSync(process.execPath, ["--import", "tsx", "--expose-gc", join(here, name)], { stdio: "inherit" });
  if (run.status !== 0) {
    failed += 1;
    console.error(`${name} exited with ${run.status ?? run.signal}`);
  }
}
if (benches.length === 0) console.log("no benchmark matched");
process.exit(failed === 0 ? 0 : 1);
