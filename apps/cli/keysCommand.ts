// `verdict keys create --tenant T --role read|write [--name NAME]`: a new API key, printed once on
// stdout (only its hash is stored): in VERDICT_HOME/api-keys.json on the embedded default (a
// running `verdict start` accepts it at once), in the read database's api_keys with PostgreSQL.
// `verdict keys list [--tenant T]` shows each key's id, tenant, role, name and dates (never the key
// nor its hash); `verdict keys revoke ID` revokes one, refused at once by the API (or within its
// 1 s key cache, when another process serves it). A whole key given as an argument is never
// printed back (it is the secret); `keys revoke` takes one for its id when it is a valid key.
import { join } from "node:path";
import { homeCreatedLine } from "@verdict/infra/db";
import type { ApiKeyListing, ApiKeyStore } from "@verdict/api";
import { oneOf, parseFlags, required } from "./args.js";
import { FLAG_SPECS } from "./flagSpecs.js";
import { CliError, EXIT, type ExitCode } from "./errors.js";
import type { Io } from "./io.js";
import { platformMode, readUrlVariable, Resources, type PlatformMode } from "./platform.js";
import { openApiKeys } from "./services.js";
import { checkTenant } from "./tenant.js";
import { errorText } from "./outputFile.js";

/** Part of a whole key `vk_<id>_<secret>`, wherever it is in an argument (`--name=vk_…`, a key cut short). */
const WHOLE_KEY = /vk_[0-9a-f]{12}_/;

const PASS_THE_ID = "pass its id, as `verdict keys list` shows it";

/** A usage error, without the value, when an argument holds a whole key: error messages quote arguments. */
function refuseWholeKeys(command: string, argv: readonly string[]): void {
  if (argv.some((arg) => WHOLE_KEY.test(arg))) {
    throw new CliError(`verdict ${command}: an argument is a whole API key (value not shown): a key is a secret, never an argument; to name a key, ${PASS_THE_ID}`);
  }
}

async function withKeys<T>(env: NodeJS.ProcessEnv, work: (store: ApiKeyStore) => Promise<T>, io?: Io): Promise<T> {
  const resources = new Resources();
  const mode = platformMode(env);
  const onHomeCreated = io && (() => io.err(homeCreatedLine("verdict keys create", mode.home, env)));
  try {
    return await work(await openApiKeys(mode, resources, onHomeCreated));
  } finally {
    await resources.close();
  }
}

/**
 * Where a new key is kept, said when it is made: an API that reads its keys from elsewhere (a
 * command run without the API's DATABASE_URL, or without its VERDICT_READ_DATABASE_URL) refused
 * the key as unknown, and nothing had said where it went.
 */
function keptIn(mode: PlatformMode): string {
  return mode.readUrl ? `the api_keys table of ${readUrlVariable(mode)}'s database` : join(mode.home, "api-keys.json");
}

export async function keysCreate(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  refuseWholeKeys("keys create", argv);
  const flags = parseFlags("keys create", argv, FLAG_SPECS["keys create"]);
  const tenant = required("keys create", flags, "tenant");
  checkTenant(tenant, "verdict keys create: --tenant");
  const role = oneOf("keys create", "role", required("keys create", flags, "role", "read or write"), ["read", "write"] as const, "read");
  return withKeys(env, async (store) => {
    const { key, record } = await store.create({ tenant, role, name: flags.values.name ?? "" });
    io.err(`key ${record.keyId} for tenant ${record.tenant} (${record.role}), kept in ${keptIn(platformMode(env))}; shown once, store it now:`);
    await deliverKey(store, record.keyId, key, io);
    return EXIT.ok;
  }, io);
}

/**
 * Writes a new key to stdout, awaited: a key that could not be written (`| true`, `> /dev/full`)
 * is held by no one, so it is revoked and the command fails. It was printed unawaited, exit 0
 * (or 1 for a full disk), and the key stayed active, a live key in `keys list` nobody had.
 */
async function deliverKey(store: ApiKeyStore, keyId: string, key: string, io: Io): Promise<void> {
  try {
    await io.write(`${key}\n`);
  } catch (error) {
    const lost = `verdict keys create: stdout: could not write the key (${errorText(error)})`;
    const revoked = await store.revoke(keyId).then(() => null, (failure: unknown) => errorText(failure));
    if (revoked === null) throw new CliError(`${lost}; key ${keyId} revoked, as no one holds it`, EXIT.failed);
    throw new CliError(`${lost}, and revoking it failed (${revoked}): revoke it with \`verdict keys revoke ${keyId}\``, EXIT.failed);
  }
}

const COLUMNS = ["ID", "TENANT", "ROLE", "NAME", "CREATED", "REVOKED"];

/** One row of `keys list`: dates in UTC to the second, "-" for a key still valid. */
function row(key: ApiKeyListing): string[] {
  const when = (date: Date | null) => (date ? date.toISOString().replace(/\.\d{3}Z$/, "Z") : "-");
  return [key.keyId, key.tenant, key.role, key.name || "-", when(key.createdAt), when(key.revokedAt)];
}

/** Rows as aligned columns, two spaces apart. */
function table(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((r) => r[column].length)));
  return rows.map((r) => r.map((cell, column) => cell.padEnd(widths[column])).join("  ").trimEnd()).join("\n");
}

export async function keysList(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  refuseWholeKeys("keys list", argv);
  const flags = parseFlags("keys list", argv, FLAG_SPECS["keys list"]);
  const tenant = flags.values.tenant;
  if (tenant !== undefined) checkTenant(tenant, "verdict keys list: --tenant");
  return withKeys(env, async (store) => {
    const keys = (await store.list()).filter((key) => tenant === undefined || key.tenant === tenant);
    if (keys.length === 0) {
      io.err(`no API keys${tenant === undefined ? "" : ` for tenant ${tenant}`} (create one with \`verdict keys create\`)`);
      return EXIT.ok;
    }
    io.out(table([COLUMNS, ...keys.map(row)]));
    return EXIT.ok;
  });
}

export async function keysRevoke(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  if (argv.length === 1 && WHOLE_KEY.test(argv[0])) return revokeWholeKey(argv[0], io, env);
  // A whole key beside anything else (`--tenant T`): the general refusal said keys are never
  // arguments, though revoke takes one alone.
  if (argv.length > 1 && argv.some((arg) => WHOLE_KEY.test(arg))) {
    throw new CliError("verdict keys revoke: a whole API key was given with other arguments (values not shown): pass the key, or its id, alone (keys revoke takes no flags)");
  }
  refuseWholeKeys("keys revoke", argv);
  const flags = parseFlags("keys revoke", argv, FLAG_SPECS["keys revoke"]);
  const keyId = flags.positionals[0];
  return withKeys(env, async (store) => {
    const found = (await store.list()).find((key) => key.keyId === keyId);
    if (!found) throw new CliError(`verdict keys revoke: no API key ${JSON.stringify(keyId)} (\`verdict keys list\` shows the ids)`);
    return revokeListed(store, found, io);
  });
}

/**
 * The whole key instead of its id: revoked by its id when it is a valid key of this store (its
 * secret matches); else refused. Never echoed either way: it was printed in full as "no API key".
 */
async function revokeWholeKey(key: string, io: Io, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  return withKeys(env, async (store) => {
    const principal = await store.verify(key);
    const found = principal && (await store.list()).find((listed) => listed.keyId === principal.keyId);
    if (!found) {
      throw new CliError(
        `verdict keys revoke: a whole API key was given, not its id, and it is no valid key here (unknown, revoked already, or its secret does not match) (value not shown); ${PASS_THE_ID}`,
      );
    }
    return revokeListed(store, found, io);
  });
}

/** Revokes a listed key, or says it was revoked already. */
async function revokeListed(store: ApiKeyStore, found: ApiKeyListing, io: Io): Promise<ExitCode> {
  if (found.revokedAt || !(await store.revoke(found.keyId))) {
    io.err(`key ${found.keyId} was already revoked: nothing changed`);
    return EXIT.ok;
  }
  io.err(`revoked key ${found.keyId} (tenant ${found.tenant}, ${found.role}${found.name ? `, "${found.name}"` : ""})`);
  return EXIT.ok;
}
