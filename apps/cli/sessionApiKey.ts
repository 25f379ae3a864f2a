// The key `verdict start` uses for its example run and prints for the user: valid only while that
// process serves, held in its memory and never stored. Minting a stored key on every start left a
// new never-expiring write key behind each time (with --exit, one no one could even use);
// `verdict keys create` makes a lasting one.
import { createMemoryApiKeyStore, type ApiKeyStore } from "@verdict/api";

/** `stored` as the API sees it, plus one write key for `tenant` that ends with the process. */
export async function withSessionKey(stored: ApiKeyStore, tenant: string): Promise<{ apiKeys: ApiKeyStore; key: string }> {
  const session = createMemoryApiKeyStore();
  const { key } = await session.create({ tenant, role: "write", name: "verdict start (this process)" });
  const apiKeys: ApiKeyStore = {
    create: (input) => stored.create(input),
    verify: async (presented) => (await session.verify(presented)) ?? stored.verify(presented),
    revoke: (keyId) => stored.revoke(keyId),
    list: () => stored.list(),
    close: () => stored.close(),
  };
  return { apiKeys, key };
}
