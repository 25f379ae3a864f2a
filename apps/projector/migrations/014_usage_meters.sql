-- Plan meters (reference-platform #38): what each tenant used per calendar month (UTC), by kind
-- ('execution': scenario x model pairs its started runs replay; 'evaluation_report': reports
-- newly imported), summed from UsageMetered on the usage-<tenant>.<YYYY-MM> streams. Quotas are
-- checked against those streams, never this table; it answers Query.usage and GET /api/usage.
-- No PROJECTION_VERSION bump: a log written before metering holds no UsageMetered, so an empty
-- table is what a rebuild would give.
CREATE TABLE usage_meters (
  tenant text NOT NULL,
  month text NOT NULL,
  kind text NOT NULL,
  used bigint NOT NULL,
  PRIMARY KEY (tenant, month, kind)
);
