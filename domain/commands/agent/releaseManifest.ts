// A release's digest from its manifest (reference-platform §1 #39: `release_digest` = first 12 hex
// of SHA-256 over the canonical manifest, options minus secrets). The manifest is what the agent's
// model is given (provider, model, options, instructions, tools...), as the host describes it: a
// JSON object, any shape.
//
// The manifest is never stored. It is read to compute the digest and dropped: AgentReleaseRecorded
// holds the digest only, no read model has a column for a manifest and no answer serves one (an
// AgentReleaseRecorded v1, which held one, is read without it). So a secret in it, recognized by
// the rules below or not, never reaches the log, a read model or a caller.
//
// The digest, exactly:
//
// 1. The manifest's secrets are left out (withoutSecrets), at any depth, inside arrays too, so
//    that rotating a credential is not a new release:
//    a. A secret-looking key's scalar value (text, number, boolean, null) is left out with its
//       key. An object or array under such a key is kept and walked like any other: a `tools` map
//       keyed by tool name (resetPassword, getAuthToken), a JSON schema's `properties.token` and
//       `auth: { type: "oauth" }` are what the model is given. A key looks like a secret when,
//       lowercased with everything but a-z and 0-9 dropped, it is `auth`, ends with `auth`
//       (basic_auth), ends with `token` (access_token, x-auth-token; not max_tokens or
//       token_budget, nor a tokenizer's special tokens: bos_token, eos_token, eot_token,
//       pad_token, unk_token, sep_token, cls_token, mask_token, stop_token), ends with `dsn`, or
//       contains one of SECRET_KEY_PARTS (api_key, OPENAI_API_KEY, client_secret, password,
//       Authorization, private_key, aws_access_key_id, jwt, connection_string...). A key ending
//       in `key` (openai_key, license_key; not `key` itself) is one too when its value is a
//       single word of at least 16 characters holding both letters and digits.
//    b. A pair whose `name`, `key` or `header` (in any case) is secret-looking text loses its
//       `value` or `val` when that is a scalar: { name: "Authorization", value: "Bearer …" },
//       { name: "OPENAI_API_KEY", value: "sk-…" }.
//    c. Text that is a credential (CREDENTIAL_SHAPES: sk-…, ghp_…, github_pat_…, xox?-…, AKIA…,
//       AIza…, glpat-…, hf_…, npm_…, Bearer …, Basic user:password in base64, a JWT) is left
//       out, with its key or its place in an array.
//    d. Text that is a URL (`scheme://…`, one word) loses its userinfo (`user:password@`) and the
//       query and fragment parameters whose name is secret-looking (or `key`, `sig`, `signature`)
//       or whose value is a credential. The rest of its text is kept as written.
//    e. Text `NAME=value` or `NAME: value` (one line) whose NAME, leading dashes aside, is
//       secret-looking loses its value when that is one word (after an auth scheme: Bearer,
//       Basic, Token, Digest, ApiKey) or a credential: `--api-key=sk-…` is `--api-key=`,
//       `OPENAI_API_KEY=sk-…` is `OPENAI_API_KEY=`, `Authorization: Bearer …` is
//       `Authorization:`; "Password: never ask the customer for it." is kept.
//    f. In an array, the scalar after a secret-looking flag (`--api-key`, `--token`, `-password`)
//       is left out unless it is itself a flag: ["--api-key", "sk-…", "--model", "m"] is
//       ["--api-key", "--model", "m"].
// 2. What is left is written as canonical JSON: object keys sorted by UTF-16 code unit, no
//    whitespace, strings and numbers as JSON.stringify writes them (stableJson).
// 3. The digest is the first 12 lowercase hex characters of the SHA-256 of that text's UTF-8.
//
// So the same manifest in any key order, with other credentials where the rules look, is the same
// release, and a change to anything else the model is given is another. A secret the rules do not
// recognize (a password under a key named `pw`, a token inside instructions text) is digested like
// any other text: rotating it cuts a new release. It is still never stored, so never leaked.
//
// Refused before any of this, VALIDATION naming `manifest` with the path in the message
// (manifestProblem): anything but a JSON object; nesting past MANIFEST_MAX_DEPTH; a `__proto__`
// key (an object built from the manifest would drop it, so two manifests differing there would
// digest alike); a number that is not finite, or a whole number past ±(2^53 - 1) (JSON.parse reads
// 9007199254740993 as 9007199254740992, so two would digest alike); and, from callers in code,
// what JSON has no form for (a BigInt, a function, undefined, a symbol, an array hole, an object
// that is not plain); then over MANIFEST_MAX_BYTES as canonical JSON.
import { createHash } from "node:crypto";
import { isPlainObject } from "../../support/index.js";
import { stableJson } from "../evaluation/scenarioChanges.js";

/** The longest manifest taken, as canonical JSON in UTF-8 bytes (before secrets are removed). */
export const MANIFEST_MAX_BYTES = 65_536;
/** The deepest nesting of objects and arrays a manifest may have. */
export const MANIFEST_MAX_DEPTH = 32;

/** Parts of a key (lowercased, only a-z and 0-9 kept) that make it secret-looking wherever they are in it. */
export const SECRET_KEY_PARTS = [
  "apikey", "secret", "password", "passwd", "passphrase", "credential", "privatekey", "accesskey", "signingkey", "authorization", "bearer", "cookie",
  "authheader", "jwt", "connectionstring",
] as const;

/** A tokenizer's special tokens (eos_token: "</s>"): what the model is given, not credentials. */
const SPECIAL_TOKEN_KEYS = new Set(["bostoken", "eostoken", "eottoken", "padtoken", "unktoken", "septoken", "clstoken", "masktoken", "stoptoken"]);

const fold = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Whether a manifest key is secret-looking by its name alone (rule 1a). */
export function isSecretKey(key: string): boolean {
  const folded = fold(key);
  if (folded === "auth" || folded.endsWith("auth") || folded.endsWith("dsn")) return true;
  if (folded.endsWith("token")) return !SPECIAL_TOKEN_KEYS.has(folded);
  return SECRET_KEY_PARTS.some((part) => folded.includes(part));
}

/** A key ending in `key` (openai_key) holding one word of 16+ characters with letters and digits: a key's value. */
function isKeyedSecret(key: string, value: unknown): boolean {
  const folded = fold(key);
  return folded.endsWith("key") && folded !== "key" && typeof value === "string" && /^\S{16,}$/.test(value) && /[A-Za-z]/.test(value) && /\d/.test(value);
}

/** Text that is a credential as a whole (rule 1c), spaces around it aside. */
const CREDENTIAL_SHAPES: readonly RegExp[] = [
  /^(?:sk|rk)[-_][A-Za-z0-9_-]{8,}$/, // OpenAI, Anthropic (sk-ant-…), Stripe (sk_live_…, rk_live_…)
  /^(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}$/, // GitHub
  /^github_pat_[A-Za-z0-9_]{20,}$/,
  /^xox[a-z]-[A-Za-z0-9-]{8,}$/, // Slack
  /^(?:AKIA|ASIA)[A-Z0-9]{16}$/, // AWS access key id
  /^AIza[A-Za-z0-9_-]{35}$/, // Google API key
  /^glpat-[A-Za-z0-9_-]{20,}$/, // GitLab
  /^hf_[A-Za-z0-9]{30,}$/, // Hugging Face
  /^npm_[A-Za-z0-9]{36}$/,
  /^bearer\s+[A-Za-z0-9._~+/=-]{8,}$/i,
  /^eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*$/, // a JWT: three base64url parts, a JSON header
];

/** `Basic <base64 of user:password>`. */
function isBasicCredential(text: string): boolean {
  const basic = /^basic\s+([A-Za-z0-9+/]{4,}={0,2})$/i.exec(text);
  return basic !== null && Buffer.from(basic[1], "base64").toString("utf8").includes(":");
}

/** Whether text is a credential as a whole. */
function isCredential(text: string): boolean {
  const trimmed = text.trim();
  return CREDENTIAL_SHAPES.some((shape) => shape.test(trimmed)) || isBasicCredential(trimmed);
}

/** Query parameters left out of a URL besides secret-looking ones: `?key=` (Google), `sig=` (Azure SAS). */
const URL_SECRET_PARAMS = new Set(["key", "sig", "signature"]);

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** `a=1&api_key=x` without its secret parameters (rule 1d); null when none is left. */
function withoutSecretParams(params: string): string | null {
  const kept = params.split("&").filter((param) => {
    const at = param.indexOf("=");
    const name = safeDecode(at < 0 ? param : param.slice(0, at));
    const value = at < 0 ? "" : safeDecode(param.slice(at + 1));
    return !(isSecretKey(name) || URL_SECRET_PARAMS.has(fold(name)) || isCredential(value));
  });
  return kept.length === 0 ? null : kept.join("&");
}

// scheme://, userinfo@ (up to the last @ before the host's end), host and path, ?query, #fragment
const URL_TEXT = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#\s]*@)?([^?#\s]*)(?:\?([^#\s]*))?(?:#(\S*))?$/;

/** A URL without its userinfo and secret parameters, the rest as written; the text itself when it is no URL. */
function withoutUrlSecrets(text: string): string {
  const url = URL_TEXT.exec(text);
  if (!url) return text;
  const [, scheme, , rest, query, fragment] = url;
  const keptQuery = query === undefined ? null : withoutSecretParams(query);
  // A fragment in parameter form (#access_token=…) is read as one; any other is kept.
  const keptFragment = fragment === undefined ? null : fragment.includes("=") ? withoutSecretParams(fragment) : fragment;
  return `${scheme}${rest}${keptQuery === null ? "" : `?${keptQuery}`}${keptFragment === null ? "" : `#${keptFragment}`}`;
}

// NAME=value or NAME: value, one line; NAME may start with dashes (a flag).
// One word, or an auth scheme and one word (Authorization: Bearer x).
const AUTH_VALUE = /^(?:(?:bearer|basic|token|digest|apikey)\s+)?\S+$/i;
const NAMED_VALUE = /^(-{0,2}([A-Za-z_][A-Za-z0-9_.-]*))\s*([:=])\s*(.*)$/;

/** `--api-key=sk-…` as `--api-key=` (rule 1e); the text itself otherwise. */
function withoutNamedSecret(text: string): string {
  if (text.includes("\n")) return text;
  const named = NAMED_VALUE.exec(text);
  if (!named) return text;
  const [, prefix, name, separator, value] = named;
  const secretValue = AUTH_VALUE.test(value.trim()) || isCredential(value);
  return isSecretKey(name) && secretValue ? `${prefix}${separator}` : text;
}

/** Marks a value left out. */
const LEFT_OUT = Symbol("left out");

const isScalar = (value: unknown) => value === null || typeof value !== "object";

/** A secret-looking flag (rule 1f): `--api-key`, `-token`. */
const isSecretFlag = (value: unknown) => typeof value === "string" && /^-{1,2}[A-Za-z][A-Za-z0-9_.-]*$/.test(value) && isSecretKey(value.replace(/^-+/, ""));
const isFlag = (value: unknown) => typeof value === "string" && /^-{1,2}[A-Za-z]/.test(value);

function textWithoutSecrets(text: string): string | typeof LEFT_OUT {
  if (isCredential(text)) return LEFT_OUT;
  const url = withoutUrlSecrets(text);
  return url === text ? withoutNamedSecret(text) : url;
}

/** Whether an object is a pair whose name is secret-looking (rule 1b). */
function isSecretPair(value: Record<string, unknown>): boolean {
  return Object.entries(value).some(([key, inner]) => ["name", "key", "header"].includes(fold(key)) && typeof inner === "string" && isSecretKey(inner));
}

function cleaned(value: unknown): unknown {
  if (typeof value === "string") return textWithoutSecrets(value);
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const item = cleaned(value[i]);
      if (item !== LEFT_OUT) kept.push(item);
      if (isSecretFlag(value[i]) && i + 1 < value.length && isScalar(value[i + 1]) && !isFlag(value[i + 1])) i++;
    }
    return kept;
  }
  if (!isPlainObject(value)) return value;
  const pair = isSecretPair(value);
  const kept: [string, unknown][] = [];
  for (const [key, inner] of Object.entries(value)) {
    if (isScalar(inner) && (isSecretKey(key) || isKeyedSecret(key, inner) || (pair && ["value", "val"].includes(fold(key))))) continue;
    const item = cleaned(inner);
    if (item !== LEFT_OUT) kept.push([key, item]);
  }
  // fromEntries defines each key as its own property, `__proto__` included.
  return Object.fromEntries(kept);
}

/** The value with its secrets left out by rule 1 (a copy; the value itself is not changed). */
export function withoutSecrets<T>(value: T): T {
  const result = cleaned(value);
  return (result === LEFT_OUT ? null : result) as T;
}

/** The manifest's canonical JSON, secrets left out: the text the digest is taken over. */
export function canonicalManifest(manifest: Record<string, unknown>): string {
  return stableJson(withoutSecrets(manifest));
}

/** The release digest of a manifest: the first 12 hex characters of SHA-256 over its canonical JSON. */
export function manifestDigest(manifest: Record<string, unknown>): string {
  return createHash("sha256").update(canonicalManifest(manifest), "utf8").digest("hex").slice(0, 12);
}

/** How deep a JSON value nests (a scalar is 0), counting no further than `limit` + 1. */
function depthOf(value: unknown, limit: number, depth = 0): number {
  if (depth > limit || value === null || typeof value !== "object") return depth;
  let deepest = depth;
  for (const inner of Object.values(value as Record<string, unknown>)) {
    deepest = Math.max(deepest, depthOf(inner, limit, depth + 1));
    if (deepest > limit) break;
  }
  return deepest;
}

/**
 * What in a value (nested no deeper than MANIFEST_MAX_DEPTH) JSON would not carry as it is, or
 * could not tell apart, as `<path>: <rule>`; null when nothing. Each would have been lost or
 * changed before the digest (a `__proto__` key dropped, 2^53 + 1 read as 2^53, 1e400 and NaN
 * written as null, undefined left out) or thrown a TypeError (a BigInt), so is refused instead.
 */
function unjsonProblem(value: unknown, path: string): string | null {
  switch (typeof value) {
    case "string":
    case "boolean":
      return null;
    case "number":
      if (!Number.isFinite(value)) return `${path}: must be a finite number (got ${value})`;
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
        return `${path}: must be a whole number from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER} (2^53 - 1), past which two numbers read as one; write it as text`;
      }
      return null;
    case "object":
      break;
    default:
      return `${path}: must be JSON: ${typeof value === "bigint" ? "a BigInt (write it as text)" : typeof value === "undefined" ? "undefined" : `a ${typeof value}`} is not`;
  }
  if (value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return `${path}[${i}]: must be JSON: an array hole is not`;
      const problem = unjsonProblem(value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  if (!isPlainObject(value) || Object.getOwnPropertySymbols(value).length > 0) return `${path}: must be JSON: only plain objects, arrays, text, numbers, booleans and null are`;
  for (const [key, inner] of Object.entries(value)) {
    if (key === "__proto__") return `${path}.__proto__: must not be a key (JSON.parse keeps it, an object built from it drops it)`;
    const problem = unjsonProblem(inner, `${path}.${key}`);
    if (problem) return problem;
  }
  return null;
}

/**
 * What is wrong with a manifest as given, or null: not an object, too deep, holding what JSON
 * cannot carry as it is (unjsonProblem, naming where, from `manifest`), too large.
 */
export function manifestProblem(manifest: unknown): string | null {
  if (!isPlainObject(manifest)) return "must be a JSON object";
  if (depthOf(manifest, MANIFEST_MAX_DEPTH) > MANIFEST_MAX_DEPTH) return `must nest objects and arrays at most ${MANIFEST_MAX_DEPTH} deep`;
  const unjson = unjsonProblem(manifest, "manifest");
  if (unjson) return unjson;
  const bytes = Buffer.byteLength(stableJson(manifest), "utf8");
  if (bytes > MANIFEST_MAX_BYTES) return `must be at most ${MANIFEST_MAX_BYTES} bytes as JSON (got ${bytes})`;
  return null;
}
