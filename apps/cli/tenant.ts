// The tenant a command acts for: --tenant, else VERDICT_TENANT, else "demo". Checked here, so a
// refusal names where the value came from and every rule of a tenant id (it was the store's
// "tenant must be letters, digits...", which left out the length and "--" rules).
import { ID_PATTERN, ID_RULE } from "@verdict/domain";
import { CliError } from "./errors.js";

export function tenantOf(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag !== undefined) {
    checkTenant(flag, "--tenant");
    return flag;
  }
  const fromEnv = env.VERDICT_TENANT?.trim();
  if (fromEnv === undefined) return "demo";
  // Set but empty (`VERDICT_TENANT=` in a CI file, an unset secret): it meant demo, unsaid, and
  // acted on demo's catalogs, while `--tenant ''` was refused.
  if (fromEnv === "") throw new CliError("VERDICT_TENANT is set but empty: name a tenant, or unset it for the default tenant, demo");
  checkTenant(fromEnv, "VERDICT_TENANT");
  return fromEnv;
}

/** A usage error naming `source` (--tenant or VERDICT_TENANT) unless `tenant` is a tenant id. */
export function checkTenant(tenant: string, source: string): void {
  if (!ID_PATTERN.test(tenant)) throw new CliError(`${source} must be ${ID_RULE} (got ${JSON.stringify(tenant.length > 120 ? `${tenant.slice(0, 100)}…` : tenant)}, ${tenant.length} characters)`);
}
