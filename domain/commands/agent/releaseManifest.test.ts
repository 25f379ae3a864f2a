import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalManifest, isSecretKey, manifestDigest, manifestProblem, MANIFEST_MAX_BYTES, withoutSecrets } from "./releaseManifest.js";

const MANIFEST = {
  provider: "openai",
  model: "gpt-5-mini",
  options: { temperature: 0.2, max_tokens: 800, token_budget: 1000 },
  instructions: "Help with orders.",
  tools: [{ name: "lookup_order", description: "Find an order" }],
};

describe("manifestDigest", () => {
  it("is the first 12 hex of SHA-256 over the canonical JSON (sorted keys, no whitespace)", () => {
    const canonical =
      '{"instructions":"Help with orders.","model":"gpt-5-mini","options":{"max_tokens":800,"temperature":0.2,"token_budget":1000},' +
      '"provider":"openai","tools":[{"description":"Find an order","name":"lookup_order"}]}';
    expect(canonicalManifest(MANIFEST)).toBe(canonical);
    expect(manifestDigest(MANIFEST)).toBe(createHash("sha256").update(canonical, "utf8").digest("hex").slice(0, 12));
    expect(manifestDigest(MANIFEST)).toMatch(/^[0-9a-f]{12}$/);
  });

  it("does not depend on key order, at any depth", () => {
    const reordered = {
      tools: [{ description: "Find an order", name: "lookup_order" }],
      options: { token_budget: 1000, max_tokens: 800, temperature: 0.2 },
      instructions: "Help with orders.",
      model: "gpt-5-mini",
      provider: "openai",
    };
    expect(manifestDigest(reordered)).toBe(manifestDigest(MANIFEST));
    // Array order is part of the manifest: two tools swapped are another release.
    const twoTools = { ...MANIFEST, tools: [{ name: "a" }, { name: "b" }] };
    expect(manifestDigest({ ...MANIFEST, tools: [{ name: "b" }, { name: "a" }] })).not.toBe(manifestDigest(twoTools));
    expect(manifestDigest({ ...MANIFEST, instructions: "Help with refunds." })).not.toBe(manifestDigest(MANIFEST));
  });

  it("ignores secret-looking keys and their values, wherever they are", () => {
    const withSecrets = {
      ...MANIFEST,
      api_key: "sk-live-1",
      options: { ...MANIFEST.options, OPENAI_API_KEY: "sk-2", headers: { Authorization: "Bearer x" } },
      tools: [{ ...MANIFEST.tools[0], access_token: "t", "x-api-key": "k", password: "p" }],
      mcp: { url: "https://mcp.example", client_secret: "s", auth: { kind: "bearer" } },
    };
    const kept = withoutSecrets(withSecrets);
    expect(JSON.stringify(kept)).not.toMatch(/sk-live-1|sk-2|Bearer x|"t"|"k"|"p"|"s"|bearer/);
    expect(kept.options).toEqual({ ...MANIFEST.options, headers: {} });
    expect(kept.mcp).toEqual({ url: "https://mcp.example" });
    expect(manifestDigest(withSecrets)).toBe(manifestDigest({ ...MANIFEST, options: { ...MANIFEST.options, headers: {} }, mcp: { url: "https://mcp.example" } }));
    // The secrets' values never change the digest.
    expect(manifestDigest({ ...withSecrets, api_key: "sk-live-other" })).toBe(manifestDigest(withSecrets));
  });

  it("names secret-looking keys by the documented rule", () => {
    for (const key of ["api_key", "apiKey", "X-API-KEY", "OPENAI_API_KEY", "token", "access_token", "refreshToken", "x-auth-token", "secret", "client_secret",
      "password", "db_passwd", "passphrase", "Authorization", "auth", "private_key", "aws_access_key_id", "credentials", "bearer", "Cookie", "signing_key"]) {
      expect([key, isSecretKey(key)]).toEqual([key, true]);
    }
    for (const key of ["max_tokens", "token_budget", "tokens", "model", "author", "instructions", "key", "provider", "tools", "authority"]) {
      expect([key, isSecretKey(key)]).toEqual([key, false]);
    }
  });
});

describe("manifestProblem", () => {
  it("takes a JSON object within the bounds", () => {
    expect(manifestProblem(MANIFEST)).toBeNull();
    expect(manifestProblem({})).toBeNull();
  });

  it("refuses anything but an object, nesting past 32 and over 64 KiB, saying which", () => {
    for (const value of [[], null, "manifest", 3]) expect(manifestProblem(value)).toBe("must be a JSON object");
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 40; i++) deep = { inner: deep };
    expect(manifestProblem(deep)).toBe("must nest objects and arrays at most 32 deep");
    const big = { instructions: "x".repeat(MANIFEST_MAX_BYTES) };
    expect(manifestProblem(big)).toBe(`must be at most ${MANIFEST_MAX_BYTES} bytes as JSON (got ${MANIFEST_MAX_BYTES + 19})`);
  });
});
