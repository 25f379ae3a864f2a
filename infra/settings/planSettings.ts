// A deployment's plan (reference-platform #38): the quotas and the execution switch every tenant
// of this install gets, read once from the environment by the API process and `verdict start`
// / `verdict evals import` and handed to the domain (which never reads the environment).
//   VERDICT_QUOTA_EXECUTIONS   scenario x model pairs a tenant's runs may replay per calendar month (UTC); unset: no limit
//   VERDICT_QUOTA_REPORTS      reports a tenant may import per calendar month (UTC); unset: no limit
//   VERDICT_EXECUTION_DISABLED true refuses every StartRun (default false)
import type { Plan } from "@verdict/domain";
import { SettingError, wholeNumberSetting } from "./wholeNumber.js";

const QUOTA_RULE = { min: 0, noun: "whole number" };

/**
 * `name` as true or false: `true`/`false` (any case, spaces around allowed), unset or blank:
 * `fallback`. Anything else ("1", "yes") is refused naming the variable, as a typo must not
 * leave execution on when it was meant to be off.
 */
function booleanSetting(env: Readonly<Record<string, string | undefined>>, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = raw.trim().toLowerCase();
  if (value === "true") return true;
  if (value === "false") return false;
  throw new SettingError(name, `${name} must be true or false (got ${JSON.stringify(raw)})`);
}

/** The plan `env` sets; a bad value is a SettingError naming its variable and rule. */
export function planFromEnv(env: Readonly<Record<string, string | undefined>>): Plan {
  const plan: Plan = {};
  const executions = wholeNumberSetting(env, "VERDICT_QUOTA_EXECUTIONS", QUOTA_RULE, undefined);
  const reports = wholeNumberSetting(env, "VERDICT_QUOTA_REPORTS", QUOTA_RULE, undefined);
  if (executions !== undefined) plan.executionsPerMonth = executions;
  if (reports !== undefined) plan.reportsPerMonth = reports;
  if (booleanSetting(env, "VERDICT_EXECUTION_DISABLED", false)) plan.executionDisabled = true;
  return plan;
}
