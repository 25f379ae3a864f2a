// `tsx apps/api/auth/createKey.ts <tenant> <read|write> [name]`: creates an API key in the read
// database (VERDICT_READ_DATABASE_URL, else DATABASE_URL) and prints it once; only its hash is kept.
import { createPostgresApiKeyStore } from "./postgresApiKeyStore.js";

async function main(argv: string[]): Promise<void> {
  const [tenant, role, name = ""] = argv;
  const url = process.env.VERDICT_READ_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) throw new Error("set VERDICT_READ_DATABASE_URL or DATABASE_URL to the read database that holds api_keys");
  if (!tenant || !role) throw new Error("usage: createKey <tenant> <read|write> [name]");
  const store = await createPostgresApiKeyStore({ url });
  try {
    const { key, record } = await store.create({ tenant, role: role as "read" | "write", name });
    console.log(`key ${record.keyId} for tenant ${record.tenant} (${record.role}); shown once, store it now:`);
    console.log(key);
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
