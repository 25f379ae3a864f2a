// `npm run api|projector|worker [-- args]`: one app of the distributed platform as its own
// process, the way to run it in production. apps/<app>/main.ts is bundled by scripts/bundle.mjs
// into .build/apps/<app>.mjs (about half a second, every start, so it is never stale) and run in
// this process on plain node, as `npm start` runs the CLI: no tsx loader thread and no per-file
// transforms, so ~75-85 MB less peak resident memory a process than `tsx apps/<app>/main.ts`
// and less CPU in 3 of 4 runs (platform bench, distributed; docs/performance-log.md). The pid is
// the app's, so signals and kill -9 reach it. `tsx apps/<app>/main.ts` runs the same code from source.
import { pathToFileURL } from "node:url";
import { bundle } from "./bundle.mjs";

const APPS = ["api", "projector", "worker"];

// `--bundle-only`: writes the three bundles and runs none, for an image built once and run
// without esbuild or a writable app folder (a read-only root): `node .build/apps/<app>.mjs`
// then runs an app as this launcher would. A bundle reads the files it needs beside their
// sources (migrations, examples), so it runs from the checkout it was built in.
if (process.argv[2] === "--bundle-only" && process.argv.length === 3) {
  for (const name of APPS) console.log(await bundle(`apps/${name}/main.ts`, `.build/apps/${name}.mjs`));
  process.exit(0);
}

const app = process.argv[2];
if (!APPS.includes(app)) {
  console.error(`usage: node scripts/app.mjs <${APPS.join("|")}> [arguments of the app], or --bundle-only` + (app === undefined ? "" : ` (got ${JSON.stringify(app)})`));
  process.exit(2);
}
const file = await bundle(`apps/${app}/main.ts`, `.build/apps/${app}.mjs`);
// The app reads its own arguments from argv[2] on, as when it is run directly.
process.argv.splice(2, 1);
await import(pathToFileURL(file).href);
