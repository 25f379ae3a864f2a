// `npm start` (`npm start -- --exit` stops after the example run): `verdict start`, the CLI of
// apps/cli/main.ts bundled by scripts/bundle.mjs into .build/cli/verdict.mjs (about half a second,
// every time, so it is never stale) and run in this process with plain node.
// `npx tsx apps/cli/main.ts start` runs the same code from source.
import { pathToFileURL } from "node:url";
import { bundle } from "./bundle.mjs";

const file = await bundle("apps/cli/main.ts", ".build/cli/verdict.mjs");
await import(pathToFileURL(file).href);
