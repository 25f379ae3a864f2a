// Where `verdict evals import --url URL` sends its envelope, checked before the file is read (a
// usage error makes no request): the API's URLs from its base URL, the key from VERDICT_API_KEY
// (never a flag: flags land in shell history and process lists), and how long the request may
// take (VERDICT_API_TIMEOUT_MS, in milliseconds as every other timeout). No message here shows
// the key or a password in the URL.
import { CliError } from "./errors.js";

export interface RemoteTarget {
  /** The base URL as messages name it, e.g. http://host:4000. */
  url: string;
  graphqlUrl: string;
  wsUrl: string;
  apiKey: string;
  timeoutMs: number;
}

const COMMAND = "verdict evals import";
const DEFAULT_API_TIMEOUT_MS = 60_000;
const MAX_API_TIMEOUT_MS = 86_400_000;

/** This machine: a key sent here in clear crosses no network. */
function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** The base URL's GraphQL and WebSocket URLs; `/graphql` itself (as `start` prints it) is taken as its base. */
function apiUrls(flag: string, insecureHttp: boolean): Pick<RemoteTarget, "url" | "graphqlUrl" | "wsUrl"> {
  const parsed = URL.canParse(flag) ? new URL(flag) : null;
  // The value is not repeated back: a mistyped `user:password@host` would show the password.
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    throw new CliError(`${COMMAND}: --url must be an http:// or https:// URL, the API's base URL (e.g. http://host:4000)`);
  }
  if (parsed.username || parsed.password) {
    throw new CliError(`${COMMAND}: --url must not hold a user name or password (user:password@host); the API key comes from VERDICT_API_KEY`);
  }
  if (parsed.search || parsed.hash) throw new CliError(`${COMMAND}: --url must be the API's base URL, without a query or fragment (e.g. http://host:4000)`);
  // Anyone on the way could read the key, and write with it; this machine's own API is fine.
  if (parsed.protocol === "http:" && !isLoopback(parsed.hostname) && !insecureHttp) {
    throw new CliError(`${COMMAND}: --url is plain http:// to ${parsed.hostname}, which would send VERDICT_API_KEY unencrypted: use https://, or pass --insecure-http on a network you trust`);
  }
  const url = `${parsed.origin}${parsed.pathname.replace(/\/+$/, "").replace(/\/graphql$/, "")}`;
  return { url, graphqlUrl: `${url}/graphql`, wsUrl: `${url.replace(/^http/, "ws")}/graphql` };
}

function apiKeyOf(env: NodeJS.ProcessEnv): string {
  const key = env.VERDICT_API_KEY?.trim() ?? "";
  if (!key) {
    throw new CliError(`${COMMAND}: --url needs an API key in VERDICT_API_KEY (a write key of that install, from \`verdict keys create --role write\` there); a key is never taken as a flag`);
  }
  if (!/^[\x21-\x7e]+$/.test(key)) throw new CliError(`${COMMAND}: VERDICT_API_KEY holds a space, control or non-ASCII character, which no API key has (set it to the whole key, as \`verdict keys create\` printed it)`);
  return key;
}

function timeoutOf(env: NodeJS.ProcessEnv): number {
  const value = env.VERDICT_API_TIMEOUT_MS?.trim();
  if (!value) return DEFAULT_API_TIMEOUT_MS;
  const ms = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(ms > 0 && ms <= MAX_API_TIMEOUT_MS)) {
    throw new CliError(`${COMMAND}: VERDICT_API_TIMEOUT_MS must be a whole number of milliseconds above 0 and at most ${MAX_API_TIMEOUT_MS}, e.g. ${DEFAULT_API_TIMEOUT_MS} (got ${JSON.stringify(value.slice(0, 40))})`);
  }
  return ms;
}

/** --url's target; the key decides the tenant there, so --tenant beside it is refused. */
export function remoteTarget(urlFlag: string, tenantFlag: string | undefined, env: NodeJS.ProcessEnv, insecureHttp = false): RemoteTarget {
  if (tenantFlag !== undefined) throw new CliError(`${COMMAND}: --tenant does not apply with --url: the API key (VERDICT_API_KEY) decides the tenant there`);
  return { ...apiUrls(urlFlag, insecureHttp), apiKey: apiKeyOf(env), timeoutMs: timeoutOf(env) };
}
