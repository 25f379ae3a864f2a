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

  it("ignores secret-looking keys' scalar values, wherever they are", () => {
    const withSecrets = {
      ...MANIFEST,
      api_key: "sk-live-1",
      options: { ...MANIFEST.options, OPENAI_API_KEY: "sk-2", headers: { Authorization: "Bearer x" } },
      tools: [{ ...MANIFEST.tools[0], access_token: "t", "x-api-key": "k", password: "p" }],
      mcp: { url: "https://mcp.example", client_secret: "s", auth: { kind: "bearer" } },
    };
    const kept = withoutSecrets(withSecrets);
    expect(JSON.stringify(kept)).not.toMatch(/sk-live-1|sk-2|Bearer x|"t"|"k"|"p"|"s"/);
    expect(kept.options).toEqual({ ...MANIFEST.options, headers: {} });
    // An object under a secret-looking key is kept and walked: `auth: { kind }` says how, not with what.
    expect(kept.mcp).toEqual({ url: "https://mcp.example", auth: { kind: "bearer" } });
    expect(manifestDigest(withSecrets)).toBe(manifestDigest({ ...MANIFEST, options: { ...MANIFEST.options, headers: {} }, mcp: { url: "https://mcp.example", auth: { kind: "bearer" } } }));
    // The secrets' values never change the digest.
    expect(manifestDigest({ ...withSecrets, api_key: "sk-live-other" })).toBe(manifestDigest(withSecrets));
    expect(withSecrets.api_key).toBe("sk-live-1"); // the manifest given is not changed
  });

  it("names secret-looking keys by the documented rule", () => {
    for (const key of ["api_key", "apiKey", "X-API-KEY", "OPENAI_API_KEY", "token", "access_token", "refreshToken", "x-auth-token", "secret", "client_secret",
      "password", "db_passwd", "passphrase", "Authorization", "auth", "private_key", "aws_access_key_id", "credentials", "bearer", "Cookie", "signing_key",
      "basic_auth", "proxyAuth", "auth_header", "jwt", "id_jwt", "dsn", "sentry_dsn", "connection_string"]) {
      expect([key, isSecretKey(key)]).toEqual([key, true]);
    }
    for (const key of ["max_tokens", "token_budget", "tokens", "model", "author", "instructions", "key", "provider", "tools", "authority", "database_url",
      "eos_token", "bos_token", "pad_token", "eot_token", "unk_token", "stop_token", "openai_key"]) {
      expect([key, isSecretKey(key)]).toEqual([key, false]);
    }
  });
});

/** The manifest of the review, with `secret` in every place a host may put a credential. */
const leaky = (secret: string) => ({
  model: "gpt-5-mini",
  mcp_servers: [{
    url: `https://mcp.example/x?api_key=${secret}-q&region=eu`,
    headers: [{ name: "Authorization", value: `Bearer ${secret}-h` }, { name: "X-Api-Key", value: `${secret}-x` }, { name: "Accept", value: "application/json" }],
    env: [{ name: "OPENAI_API_KEY", value: `${secret}-e` }, { name: "LOG_LEVEL", value: "debug" }],
    args: ["--api-key", `${secret}-a`, "--model", "gpt-5-mini"],
  }],
  options: { openai_key: `${secret}-k`, basic_auth: `user:${secret}-b`, auth_header: `Bearer ${secret}-ah`, jwt: `${secret}-j`, dsn: `${secret}-d`,
    database_url: `postgres://agent:${secret}-p@db.internal:5432/orders` },
});

describe("credentials held in values", () => {
  it("leaves every one of them out, so rotating them is the same release", () => {
    const kept = JSON.stringify(withoutSecrets(leaky("sk-live-AAAA")));
    expect(kept).not.toContain("AAAA");
    expect(manifestDigest(leaky("sk-live-BBBB"))).toBe(manifestDigest(leaky("sk-live-AAAA")));
    // What is not a credential stays in: the URL's host, path and other parameters, the other pairs and arguments.
    expect(withoutSecrets(leaky("sk-live-AAAA"))).toEqual({
      model: "gpt-5-mini",
      mcp_servers: [{
        url: "https://mcp.example/x?region=eu",
        headers: [{ name: "Authorization" }, { name: "X-Api-Key" }, { name: "Accept", value: "application/json" }],
        env: [{ name: "OPENAI_API_KEY" }, { name: "LOG_LEVEL", value: "debug" }],
        args: ["--api-key", "--model", "gpt-5-mini"],
      }],
      options: { database_url: "postgres://db.internal:5432/orders" },
    });
  });

  it("reads pairs by name, key or header in any case, and leaves an object value to be walked", () => {
    const pairs = (secret: string) => ({ headers: [{ Header: "x-goog-api-key", Val: secret }, { key: "Cookie", value: secret }, { name: "GITHUB_TOKEN", valueFrom: { secretKeyRef: { name: "gh", key: "token" } } }] });
    expect(withoutSecrets(pairs("one"))).toEqual({ headers: [{ Header: "x-goog-api-key" }, { key: "Cookie" }, { name: "GITHUB_TOKEN", valueFrom: { secretKeyRef: { name: "gh", key: "token" } } }] });
    expect(manifestDigest(pairs("one"))).toBe(manifestDigest(pairs("two")));
  });

  it("leaves out text shaped like a credential wherever it is, and the value of NAME=value text and flags", () => {
    const shapes = [
      "sk-proj-abcdefghijklmnop", "sk-ant-api03-abcdefgh", "sk_live_51Habcdefgh", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "github_pat_11ABCDEFG0123456789abcdef",
      "xoxb-1234567890-abcdef", "AKIAIOSFODNN7EXAMPLE", `AIza${"a".repeat(35)}`, "glpat-abcdefghijklmnopqrst", `hf_${"a".repeat(34)}`, `npm_${"a".repeat(36)}`,
      "Bearer abc.def-ghi_jkl", "bearer 0123456789", `Basic ${Buffer.from("user:pass").toString("base64")}`,
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "  sk-live-padded12  ",
    ];
    for (const shape of shapes) expect([shape, withoutSecrets({ anywhere: shape, list: [shape, "kept"] })]).toEqual([shape, { list: ["kept"] }]);
    for (const text of ["1.2.3", "Basic questions first", "Bearer in mind the refund policy.", "gpt-5-mini", "sk", "Token limits apply"]) {
      expect(withoutSecrets({ t: text })).toEqual({ t: text });
    }
    const named = (secret: string) => ({ args: [`--api-key=${secret}`, `OPENAI_API_KEY=${secret}`, `Authorization: Bearer ${secret}`, "-token", secret, "--verbose"] });
    expect(withoutSecrets(named("s3cr3t-value"))).toEqual({ args: ["--api-key=", "OPENAI_API_KEY=", "Authorization:", "-token", "--verbose"] });
    expect(manifestDigest(named("one"))).toBe(manifestDigest(named("two")));
    // Model-facing text of that form is kept when its value is more than a word.
    const rules = { rules: ["Password: never ask the customer for it.", "Token: explain what a session token is when asked."] };
    expect(withoutSecrets(rules)).toEqual(rules);
  });

  it("strips URLs of userinfo and secret parameters only, keeping the rest as written", () => {
    expect(withoutSecrets({ u: "https://user:pw@Example.com/a?x=1&token=t&key=AIza&sig=abc#access_token=z&state=s" })).toEqual({ u: "https://Example.com/a?x=1#state=s" });
    expect(withoutSecrets({ u: "redis://:p%40ss@cache:6379/0" })).toEqual({ u: "redis://cache:6379/0" });
    expect(withoutSecrets({ u: "https://o0.ingest.sentry.io/0", dsn_like: "https://publickey@o0.ingest.sentry.io/0" })).toEqual({ u: "https://o0.ingest.sentry.io/0", dsn_like: "https://o0.ingest.sentry.io/0" });
    expect(withoutSecrets({ u: "https://api.example/v1?q=Bearer%200123456789" })).toEqual({ u: "https://api.example/v1" });
    // Another host, path or parameter is another release.
    expect(manifestDigest({ u: "https://a.example/v1?x=1" })).not.toBe(manifestDigest({ u: "https://b.example/v1?x=1" }));
    expect(manifestDigest({ u: "https://a.example/v1?x=1" })).not.toBe(manifestDigest({ u: "https://a.example/v1?x=2" }));
  });

  it("leaves out a key-like word under a key ending in `key`, and keeps other values there", () => {
    expect(withoutSecrets({ anthropic_key: "abc123def456ghi789", license_key: "LIC-2026-0001-ABCD", sort_key: "created_at", cache_key: "v2", key: "lookup0123456789abc" }))
      .toEqual({ sort_key: "created_at", cache_key: "v2", key: "lookup0123456789abc" });
  });

  it("a secret the rules do not recognize still changes the digest (it is never stored)", () => {
    expect(manifestDigest({ pw: "hunter2" })).not.toBe(manifestDigest({ pw: "hunter3" }));
  });
});

describe("model-facing content under secret-looking keys", () => {
  it("a tools map keyed by tool name: editing or removing resetPassword is another release", () => {
    const v1 = {
      model: "gpt-5-mini", instructions: "Help customers.",
      tools: {
        lookupOrder: { description: "Find an order", parameters: { type: "object", properties: { id: { type: "string" } } } },
        resetPassword: { description: "Send a reset link", parameters: { type: "object", properties: { email: { type: "string" } } } },
        getAuthToken: { description: "Issue a token" },
      },
    };
    const edited = structuredClone(v1);
    edited.tools.resetPassword.description = "Reset the password immediately, without asking for confirmation";
    const removed = structuredClone(v1) as { tools: Record<string, unknown> };
    delete removed.tools.resetPassword;
    const renamed = structuredClone(v1);
    renamed.tools.getAuthToken.description = "Issue a token valid for a day";
    expect(new Set([manifestDigest(v1), manifestDigest(edited), manifestDigest(removed as never), manifestDigest(renamed)]).size).toBe(4);
  });

  it("a tool parameter named token, and a tokenizer's eos_token, are part of the release", () => {
    const tool = (description: string) => ({ tools: [{ name: "verify", parameters: { properties: { token: { type: "string", description } } } }] });
    const gen = (eos: string) => ({ model: "llama", options: { eos_token: eos, max_tokens: 10 } });
    expect(manifestDigest(tool("the 6-digit code"))).not.toBe(manifestDigest(tool("anything")));
    expect(manifestDigest(gen("</s>"))).not.toBe(manifestDigest(gen("<|eot_id|>")));
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
