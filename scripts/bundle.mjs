// Bundles a TypeScript entry point of this repository into one ESM file for plain `node`. This is
// how `npm start` runs the platform (scripts/start.mjs): under tsx every process also carries
// tsx's module loader thread and esbuild's per-file transforms, ~50 MB of resident memory the
// embedded default cannot spare. The workspace packages (@verdict/*) are compiled into the bundle;
// everything under node_modules stays external and is loaded from there as usual.
import { build, stop } from "esbuild";
import { readFile, rename, writeFile, mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * Node flags `npm start` gives the embedded process (package.json "start", which must match; why
 * each, in start.mjs).
 */
export const EMBEDDED_NODE_FLAGS = ["--max-semi-space-size=4", "--heap-growing-percent=40", "--v8-pool-size=1", "--no-liftoff"];

/** Keeps packages from node_modules out of the bundle; the workspace's own are compiled in. */
const externalDependencies = {
  name: "external-dependencies",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith("@verdict/") ? undefined : { path: args.path, external: true }));
  },
};

/**
 * A module that finds files beside itself (migrations, examples, tsconfig) asks import.meta.url,
 * which in a bundle would be the bundle's: each such file keeps its own URL instead.
 */
const ownImportMetaUrl = {
  name: "own-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const contents = source.includes("import.meta.url") ? source.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)) : source;
      return { contents, loader: "ts" };
    });
  },
};

/** Writes `entry` (relative to the repository) bundled to `outfile`; returns the file's absolute path. */
export async function bundle(entry, outfile) {
  const target = resolve(ROOT, outfile);
  try {
    const result = await build({
      entryPoints: [resolve(ROOT, entry)],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      write: false,
      // type-graphql and MikroORM name GraphQL types and entities after their classes.
      keepNames: true,
      // The API's tsconfig turns on the legacy decorators type-graphql needs (as under tsx).
      tsconfig: join(ROOT, "apps/api/tsconfig.json"),
      define: { VERDICT_BUNDLE: "true" },
      // CommonJS packages loaded through createRequire keep working; `require` is not otherwise defined in ESM.
      banner: { js: "import { createRequire as __verdictCreateRequire } from 'node:module'; const require = __verdictCreateRequire(import.meta.url);" },
      plugins: [externalDependencies, ownImportMetaUrl],
      logLevel: "warning",
    });
    // Written aside then renamed: two starts at once never run a half-written bundle.
    await mkdir(dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.partial`;
    await writeFile(partial, result.outputFiles[0].contents);
    await rename(partial, target);
    return target;
  } finally {
    await stop(); // esbuild's service process is not needed once the file is written
  }
}
