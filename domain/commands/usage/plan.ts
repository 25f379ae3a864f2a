// A tenant's plan: how much it may use per calendar month (UTC) and whether it may execute at
// all (reference-platform #38, §3 rules 18-20). The caller builds it (the API and the CLI from
// VERDICT_QUOTA_* settings) and hands it to startRun / importReport; the domain never reads the
// environment. An absent limit is no limit.
import { DomainError } from "../../events/domainError.js";
import type { UsageKind } from "../../events/usageEvents.js";

export interface Plan {
  /** Pairs (scenario x model) a tenant's runs may replay per month. */
  executionsPerMonth?: number;
  /** Reports a tenant may import (newly stored) per month. */
  reportsPerMonth?: number;
  /** Refuses every StartRun; creating evaluations and importing catalogs or reports still works. */
  executionDisabled?: boolean;
}

/** No limit and execution enabled: what a caller that passes no plan gets. */
export const UNLIMITED_PLAN: Plan = {};

export const EXECUTION_DISABLED_MESSAGE = "Agent execution is disabled on this dashboard";
export const PLAN_LIMIT_MESSAGE = "Plan limit reached";

/**
 * The settings every host builds a plan from (infra/settings planSettings.ts, for the API and the
 * CLI alike): a refusal names the one that refused it, so an operator knows what to change.
 */
const PLAN_SETTINGS = {
  execution: "VERDICT_QUOTA_EXECUTIONS",
  evaluation_report: "VERDICT_QUOTA_REPORTS",
  disabled: "VERDICT_EXECUTION_DISABLED",
} as const;

/** What a refusal tells the caller: the reference's host fields. */
export interface PlanLimitDetails {
  kind: UsageKind;
  limit: number;
  used: number;
  requested: number;
}

/**
 * A quota refused the command before anything was written. Executions are refused as
 * `plan_limit_reached` (HTTP 402, an upgrade helps), reports as `report_limit_reached` (HTTP 429,
 * as the reference answers a report quota), both with the same details.
 */
export class PlanLimitError extends DomainError {
  readonly upgradeRequired = true;
  constructor(readonly details: PlanLimitDetails) {
    const what = details.kind === "execution" ? "executions (scenario x model pairs)" : "imported reports";
    super(
      details.kind === "execution" ? "plan_limit_reached" : "report_limit_reached",
      `${PLAN_LIMIT_MESSAGE}: this month's ${what} would be ${details.used + details.requested}, over the plan's ${details.limit} (${PLAN_SETTINGS[details.kind]}; ${details.used} used, ${details.requested} requested)`,
    );
    this.name = "PlanLimitError";
  }
}

export function isPlanLimitError(error: unknown): error is PlanLimitError {
  return error instanceof PlanLimitError;
}

function executionDisabled(): DomainError {
  return new DomainError("execution_disabled", `${EXECUTION_DISABLED_MESSAGE} (${PLAN_SETTINGS.disabled}=true)`);
}

/** Refuses execution when the plan turns it off: before anything is read or written. */
export function assertExecutionEnabled(plan: Plan): void {
  if (plan.executionDisabled) throw executionDisabled();
}

/** The plan's monthly limit on `kind`, or null for none. */
export function limitOf(plan: Plan, kind: UsageKind): number | null {
  const limit = kind === "execution" ? plan.executionsPerMonth : plan.reportsPerMonth;
  return limit ?? null;
}
