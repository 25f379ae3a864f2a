// `npm run schema:emit` writes the repository's schema.graphql from the built schema;
// `npm run schema:check` (--check) exits 1 when the checked-in file is stale.
import "reflect-metadata";
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { dirname, join, relative } from "node:path";
import { ensureDecoratorTsconfig } from "../decoratorTsconfig.js";

const SCHEMA_PATH = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "schema.graphql");

async function main(check: boolean): Promise<number> {
  const { printApiSchema } = await import("../schema/printApiSchema.js");
  const emitted = await printApiSchema();
  const shown = relative(process.cwd(), SCHEMA_PATH) || SCHEMA_PATH;
  if (!check) {
    await writeFile(SCHEMA_PATH, emitted);
    console.log(`wrote ${shown}`);
    return 0;
  }
  const current = await readFile(SCHEMA_PATH, "utf8").catch(() => null);
  if (current === emitted) {
    console.log(`${shown} is up to date`);
    return 0;
  }
  console.error(
    current === null
      ? `${shown} is missing: run \`npm run schema:emit\` and commit it`
      : `${shown} is stale: the API's schema changed; run \`npm run schema:emit\` and commit the result`,
  );
  return 1;
}

if (ensureDecoratorTsconfig()) {
  main(process.argv.includes("--check")).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
