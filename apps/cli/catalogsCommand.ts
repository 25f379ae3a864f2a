// `verdict catalogs import FILE [--preview]` and `verdict catalogs export KEY [FILE]`, against the
// configured event store (the embedded default, or DATABASE_URL). Import is the same command the
// API's importCatalog sends: the same document again appends nothing.
import { randomUUID } from "node:crypto";
import { basename } from "node:path";
import { catalogAggregate, catalogStream, checkCommand, evaluationsInLog, handleCommand, importCatalogCommand, located, storableCatalog, storageRefusal, syncCatalogEvaluations, type EventStore } from "@verdict/domain";
import { parseFlags } from "./args.js";
import { loadCatalogFile } from "./catalogFile.js";
import { FLAG_SPECS } from "./flagSpecs.js";
import { checkOutputPath, writeOutputFor } from "./outputFile.js";
import { diffCatalog, diffText, lastImport } from "./catalogDiff.js";
import { CliError, EXIT, NotFoundError, type ExitCode } from "./errors.js";
import type { Io } from "./io.js";
import { claimHome, openEventStore, openExistingEventStore, platformMode, Resources } from "./platform.js";
import { tenantOf } from "./tenant.js";

/** Runs `work` on the configured store; `reading` leaves a home with no event log uncreated. */
async function withStore<T>(env: NodeJS.ProcessEnv, io: Io, reading: boolean, work: (store: EventStore) => Promise<T>): Promise<T> {
  const mode = platformMode(env);
  const resources = new Resources();
  try {
    if (reading) return await work(await openExistingEventStore(mode, resources));
    await claimHome(mode, resources, { who: "verdict catalogs import", io, env });
    return await work(await openEventStore(mode, resources));
  } finally {
    await resources.close();
  }
}

/** A refusal of what the import would record, named as the file's (the API names its `yaml`). */
function inFile(path: string, error: unknown): unknown {
  const rule = storageRefusal(error);
  return rule === null ? error : new CliError(`${path}: the catalog cannot be stored: ${rule}`);
}

export async function catalogsImport(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  const flags = parseFlags("catalogs import", argv, FLAG_SPECS["catalogs import"]);
  const path = flags.positionals[0];
  const tenant = tenantOf(flags.values.tenant, env);
  // Checked with the file's name before the store is opened: a key taken from the name says so,
  // and a refusal names the file as the reader's do (`<file>, catalog: …`).
  const catalog = located(path, () => storableCatalog(loadCatalogFile(path), basename(path)));
  // A key one typo from one the format reads (`expcet:`, `juge:`) or a check under the product's own
  // name (`expected_tools:`) is ignored or kept as metadata as any unknown key, said here.
  for (const line of catalog.warnings) io.err(`verdict catalogs import: ${line}`);
  return withStore(env, io, flags.booleans.preview, async (store) => {
    const streamId = catalogStream(tenant, catalog.key);
    const command = importCatalogCommand(catalog, tenant, { kind: "file", path });
    const options = { clock: { now: () => new Date() }, ids: { next: () => randomUUID() }, context: { tenant, actor: "cli" } };
    // Whatever the import would refuse (text a database cannot store, an event over the size
    // limit, a key too long) is refused before the diff: --preview refuses it too, and no diff
    // says "added" for an import that then fails.
    await checkCommand(store, catalogAggregate, streamId, command, options).catch((error: unknown) => {
      throw inFile(path, error);
    });
    const diff = diffCatalog(catalog, await lastImport(store, tenant, catalog.key));
    io.out(diffText(diff));
    if (flags.booleans.preview) {
      io.err("preview: nothing written");
      return EXIT.ok;
    }
    const handled = await handleCommand(store, catalogAggregate, streamId, command, options).catch((error: unknown) => {
      throw inFile(path, error);
    });
    io.err(handled.events.length ? `imported catalog ${catalog.key} for tenant ${tenant}` : `catalog ${catalog.key} unchanged: nothing written`);
    // As the API's importCatalog: every evaluation made from the catalog's sets follows it, those
    // made before sets were followed too (found in the log: the CLI opens no read models).
    const synced = await syncCatalogEvaluations(store, tenant, catalog.key, { ...options, directory: evaluationsInLog(store) });
    if (synced.evaluationIds.length) io.err(`synced ${synced.evaluationIds.length} evaluation(s) to the catalog's sets: ${synced.evaluationIds.join(", ")}`);
    return EXIT.ok;
  });
}

export async function catalogsExport(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  const flags = parseFlags("catalogs export", argv, FLAG_SPECS["catalogs export"]);
  const [key, file] = flags.positionals;
  const tenant = tenantOf(flags.values.tenant, env);
  checkOutputPath("catalogs export", "FILE", file);
  return withStore(env, io, true, async (store) => {
    const imported = await lastImport(store, tenant, key);
    if (!imported) throw new NotFoundError(`no catalog "${key}" for tenant ${tenant} (import one with \`verdict catalogs import FILE\`)`);
    if (file) {
      await writeOutputFor("catalogs export", "FILE", file, imported.canonical_yaml);
      io.err(`catalog ${key} (digest ${imported.digest}) written to ${file}`);
    } else {
      await io.write(imported.canonical_yaml);
    }
    return EXIT.ok;
  });
}
