// `npm start` (`npm start -- --exit` stops after the example run): `verdict start`, the CLI of
// apps/cli/main.ts bundled by scripts/bundle.mjs into .build/cli/verdict.mjs (about half a second,
// every time, so it is never stale) and run in this process with plain node.
// `npx tsx apps/cli/main.ts start` runs the same code from source.
// package.json runs this with node's --max-semi-space-size=4 (EMBEDDED_NODE_FLAGS): V8's young
// generation otherwise grows to 3 x 16 MB under the platform's allocation rate, ~50 MB of peak
// resident memory for no measurable speed (platform bench, embedded).
import { pathToFileURL } from "node:url";
import { bundle } from "./bundle.mjs";

const file = await bundle("apps/cli/main.ts", ".build/cli/verdict.mjs");
await import(pathToFileURL(file).href);
