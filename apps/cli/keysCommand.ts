// `verdict keys create --tenant T --role read|write [--name NAME]`: a new API key, printed once on
// stdout (only its hash is stored): in VERDICT_HOME/api-keys.json on the embedded default (a
// running `verdict start` accepts it at once), in the read database's api_keys with PostgreSQL.
import { oneOf, parseFlags, required } from "./args.js";
import { FLAG_SPECS } from "./flagSpecs.js";
import { EXIT, type ExitCode } from "./errors.js";
import type { Io } from "./io.js";
import { platformMode, Resources } from "./platform.js";
import { openApiKeys } from "./services.js";

export async function keysCreate(argv: readonly string[], io: Io, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  const flags = parseFlags("keys create", argv, FLAG_SPECS["keys create"]);
  const tenant = required("keys create", flags, "tenant");
  const role = oneOf("keys create", "role", required("keys create", flags, "role", "read or write"), ["read", "write"] as const, "read");
  const resources = new Resources();
  try {
    const store = await openApiKeys(platformMode(env), resources);
    const { key, record } = await store.create({ tenant, role, name: flags.values.name ?? "" });
    io.err(`key ${record.keyId} for tenant ${record.tenant} (${record.role}); shown once, store it now:`);
    io.out(key);
    return EXIT.ok;
  } finally {
    await resources.close();
  }
}
