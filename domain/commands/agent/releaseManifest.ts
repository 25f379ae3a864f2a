// A release's digest from its manifest (reference-platform §1 #39: `release_digest` = first 12 hex
// of SHA-256 over the canonical manifest, options minus secrets). The manifest is what the agent's
// model is given (provider, model, options, instructions, tools...), as the host describes it: a
// JSON object, any shape. The rule, exactly:
//
// 1. Every key that looks like a secret is removed with its value, at any depth (inside arrays
//    too). A key looks like a secret when, lowercased with everything but a-z and 0-9 dropped, it
//    is `auth`, ends with `token` (access_token, x-auth-token; not max_tokens or token_budget), or
//    contains one of SECRET_KEY_PARTS (api_key, OPENAI_API_KEY, client_secret, password,
//    Authorization, private_key, aws_access_key_id...). Only keys are looked at, never values.
// 2. What is left is written as canonical JSON: object keys sorted by UTF-16 code unit, no
//    whitespace, strings and numbers as JSON.stringify writes them (stableJson).
// 3. The digest is the first 12 lowercase hex characters of the SHA-256 of that text's UTF-8.
//
// So the same manifest in any key order, with or without its secrets, is the same release, and a
// change to anything the model is given is another. The manifest an event keeps is the one of
// step 1: secrets never reach the log.
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
] as const;

/** Whether a manifest key is removed before the digest is computed (and before it is stored). */
export function isSecretKey(key: string): boolean {
  const folded = key.toLowerCase().replace(/[^a-z0-9]/g, "");
  return folded === "auth" || folded.endsWith("token") || SECRET_KEY_PARTS.some((part) => folded.includes(part));
}

/** The value with every secret-looking key removed, at any depth. */
export function withoutSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item)) as T;
  if (!isPlainObject(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (!isSecretKey(key)) kept[key] = withoutSecrets(inner);
  return kept as T;
}

/** The manifest's canonical JSON, secrets removed: the text the digest is taken over. */
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

/** What is wrong with a manifest as given (not an object, too deep, too large), or null. */
export function manifestProblem(manifest: unknown): string | null {
  if (!isPlainObject(manifest)) return "must be a JSON object";
  if (depthOf(manifest, MANIFEST_MAX_DEPTH) > MANIFEST_MAX_DEPTH) return `must nest objects and arrays at most ${MANIFEST_MAX_DEPTH} deep`;
  const bytes = Buffer.byteLength(stableJson(manifest), "utf8");
  if (bytes > MANIFEST_MAX_BYTES) return `must be at most ${MANIFEST_MAX_BYTES} bytes as JSON (got ${bytes})`;
  return null;
}
