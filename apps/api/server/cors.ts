// Opt-in CORS, for a browser dashboard served from another origin (VERDICT_API_CORS_ORIGINS):
// unset, no response carries an Access-Control-* header and a preflight is answered as any other
// request (Apollo's CSRF prevention 400 on /graphql, 401 under /api), as before. Set, a preflight
// (OPTIONS with Origin and Access-Control-Request-Method) is answered 204 before any key is
// checked, with the CORS headers when its origin is listed and without them when not, and every
// other answer to a listed origin (errors, 401, 404, 503 included) carries
// Access-Control-Allow-Origin and the headers a client needs to read. Never
// Access-Control-Allow-Credentials: API keys travel in the Authorization header, never cookies.
// Apollo's CSRF prevention stays on: a browser's POST with content-type application/json (or a
// GET with apollo-require-preflight) is preflighted, which is what it asks for.
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { SettingError } from "@verdict/infra/settings";

const CORS_VARIABLE = "VERDICT_API_CORS_ORIGINS";

/** Every origin: allowed alone only, and answered `*` (which browsers never combine with credentials). */
const ANY = "*";

const RULE = "origins as a browser sends them, comma separated (scheme://host[:port], http or https, no path, no trailing slash, e.g. https://dash.example.com), or * alone for any origin";

/** What a preflight is told it may send: the key, a JSON body, and what Apollo's CSRF prevention accepts as a preflighted request. */
const ALLOWED_HEADERS = "authorization, content-type, apollo-require-preflight, x-apollo-operation-name";
const ALLOWED_METHODS = "GET, POST, OPTIONS";
/** Headers a script may read beyond the safelisted ones: a cached answer's validator, when to retry a 503, a download's file name. */
const EXPOSED_HEADERS = "ETag, Retry-After, Content-Disposition";
/** Seconds a browser may keep a preflight's answer (Chromium keeps at most 7200). */
const CORS_MAX_AGE_SECONDS = 600;

/** Why `entry` is not an origin this list may hold, or null when it is one. */
function originProblem(entry: string, count: number): string | null {
  if (entry === "") return "an empty entry (two commas, or one at an end)";
  if (entry === ANY) return count === 1 ? null : "* allows any origin, so it is given alone";
  if (entry.includes("*")) return "no wildcards inside an origin: list each origin, or * alone for any";
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return "not a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "not http or https";
  if (url.origin === entry) return null;
  return url.origin === "null" ? "not an origin" : `not an origin as a browser sends it: ${url.origin}`;
}

/** The origins `entries` name, checked: any entry that is not one is a SettingError naming `name` and the rule. */
export function checkCorsOrigins(entries: readonly string[], name: string): readonly string[] {
  for (const entry of entries) {
    const problem = originProblem(entry, entries.length);
    if (problem) throw new SettingError(name, `${name} must be ${RULE} (got ${JSON.stringify(entry)}: ${problem})`);
  }
  return [...entries];
}

/** The origins VERDICT_API_CORS_ORIGINS lists (each entry trimmed), or undefined when it is unset or blank: no CORS. */
export function corsOriginsFromEnv(env: NodeJS.ProcessEnv): readonly string[] | undefined {
  const raw = env[CORS_VARIABLE];
  if (raw === undefined || raw.trim() === "") return undefined;
  return checkCorsOrigins(raw.split(",").map((entry) => entry.trim()), CORS_VARIABLE);
}

/** The CORS middleware for `origins` (checked already), mounted before every route. */
export function corsHandler(origins: readonly string[]): RequestHandler {
  const any = origins.includes(ANY);
  const listed = new Set(origins);
  return (req: Request, res: Response, next: NextFunction) => {
    // Every answer depends on Origin once CORS is on: a shared cache must not give one origin's to another.
    res.vary("Origin");
    const origin = req.headers.origin;
    const allowed = origin !== undefined && (any || listed.has(origin));
    if (allowed) res.setHeader("Access-Control-Allow-Origin", any ? ANY : origin);
    if (req.method === "OPTIONS" && origin !== undefined && req.headers["access-control-request-method"] !== undefined) {
      if (allowed) {
        res.setHeader("Access-Control-Allow-Methods", ALLOWED_METHODS);
        res.setHeader("Access-Control-Allow-Headers", ALLOWED_HEADERS);
        res.setHeader("Access-Control-Max-Age", String(CORS_MAX_AGE_SECONDS));
      }
      res.status(204).end();
      return;
    }
    if (allowed) res.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    next();
  };
}
