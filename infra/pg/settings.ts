// How long a PostgreSQL connection may be silent before it is taken for dead, for every pool and
// session the platform opens (createPgPool). Without these, a network that black-holes traffic
// left every process waiting without a word, and the server kept a partitioned dispatcher's
// session, and its leadership lock, until the operating system's TCP keepalive (hours).
// Operators set them in the environment; a malformed value is an error naming the variable.
import { SettingError, wholeNumberSetting } from "../settings/index.js";

export interface PgSettings {
  /** Connecting (TCP, TLS, login) longer than this fails, naming the host. VERDICT_PG_CONNECT_TIMEOUT_MS. */
  connectTimeoutMs: number;
  /**
   * TCP keepalive: an idle connection is probed after this long (client side, on every
   * connection; and server side, tcp_keepalives_idle, on the sessions that hold something
   * while idle: a leadership lock, a LISTEN). VERDICT_PG_KEEPALIVE_IDLE_MS.
   */
  keepAliveIdleMs: number;
  /**
   * Sessions that hold something while idle are checked this often with a `SELECT 1` that must
   * answer within 3 times this: a session that does not is dropped (a lost lock, a LISTEN opened
   * again), about 4 times this after it went silent (sessionCheck.ts). VERDICT_PG_SESSION_CHECK_MS.
   */
  sessionCheckMs: number;
  /**
   * Every ordinary query's deadline, null for none (queryDeadline.ts): the server cancels a
   * statement running longer (statement_timeout) and ends a session idle this long inside a
   * transaction (idle_in_transaction_session_timeout); a query whose answer has not come a
   * little later (a network that answers nothing) fails naming the database, and its connection
   * is closed. Migrations and rebuilds lift it for their own transaction. VERDICT_PG_QUERY_TIMEOUT_MS (0: none).
   */
  queryTimeoutMs: number | null;
}

export const DEFAULT_PG_SETTINGS: Readonly<PgSettings> = {
  connectTimeoutMs: 10_000,
  keepAliveIdleMs: 10_000,
  sessionCheckMs: 5_000,
  queryTimeoutMs: 60_000,
};

/** Environment variable -> the setting it sets. */
export const PG_SETTING_VARIABLES = {
  VERDICT_PG_CONNECT_TIMEOUT_MS: "connectTimeoutMs",
  VERDICT_PG_KEEPALIVE_IDLE_MS: "keepAliveIdleMs",
  VERDICT_PG_SESSION_CHECK_MS: "sessionCheckMs",
  VERDICT_PG_QUERY_TIMEOUT_MS: "queryTimeoutMs",
} as const satisfies Record<string, keyof PgSettings>;

/** A VERDICT_PG_* value broke its rule: a SettingError, so a process started with it stops with exit 2. */
export class PgSettingsError extends SettingError {}

/**
 * The settings `env` gives (defaults for those unset); a value that is not a whole number of ms
 * >= 1 (or 0 for VERDICT_PG_QUERY_TIMEOUT_MS: no deadline) is an error naming it.
 */
export function pgSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): PgSettings {
  const settings: PgSettings = { ...DEFAULT_PG_SETTINGS };
  const ms = { min: 1, unit: "milliseconds" };
  try {
    for (const [variable, setting] of Object.entries(PG_SETTING_VARIABLES)) {
      if (setting === "queryTimeoutMs") settings[setting] = wholeNumberSetting(env, variable, { ...ms, zeroMeans: "no deadline" }, settings[setting]);
      else settings[setting] = wholeNumberSetting(env, variable, ms, settings[setting]);
    }
  } catch (error) {
    throw error instanceof SettingError ? new PgSettingsError(error.setting, error.message) : error;
  }
  return settings;
}

/**
 * The server's side of a session that holds something while idle: PostgreSQL probes the client
 * after keepAliveIdleMs of silence, every keepAliveIdleMs after, and ends the session after 3
 * unanswered probes (about 4 x keepAliveIdleMs); tcp_user_timeout ends it as soon when data it
 * sent (a NOTIFY) stays unacknowledged. Ending the session releases its advisory locks, so a
 * standby can lead. Over a Unix socket PostgreSQL ignores them. One statement each, to be sent
 * one at a time (applyServerSettings): tcp_user_timeout needs PostgreSQL 12, and a server may
 * refuse any of them; a refused one must not take the others, or what follows, with it.
 */
export function serverKeepaliveStatements(settings: Pick<PgSettings, "keepAliveIdleMs">): string[] {
  const seconds = Math.max(1, Math.ceil(settings.keepAliveIdleMs / 1000));
  return [
    `SET tcp_keepalives_idle = ${seconds}`,
    `SET tcp_keepalives_interval = ${seconds}`,
    "SET tcp_keepalives_count = 3",
    `SET tcp_user_timeout = ${seconds * 4 * 1000}`,
  ];
}
