// Public surface of the API's access control: API keys (hashed at rest) bound to a tenant and a role.
export {
  createMemoryApiKeyStore, hashApiKey, mintApiKey, keyIdOf, listingOf, newApiKey,
  type ApiKeyStore, type ApiKeyListing, type ApiKeyRecord, type ApiPrincipal, type ApiRole, type CreatedApiKey, type NewApiKey,
} from "./apiKeys.js";
export { createPostgresApiKeyStore, API_KEYS_DDL, type PostgresApiKeyStoreOptions } from "./postgresApiKeyStore.js";
