import { describe, expect, it } from "vitest";
import type { ApiKeyStore, ApiPrincipal } from "../auth/apiKeys.js";
import { authenticate } from "./context.js";

const KEY = "vk_000000000001_secretsecretsecretsecretsecret0001";
const principal = { tenant: "acme", role: "read", keyId: "000000000001" } as unknown as ApiPrincipal;
const keys = { verify: async (key: string) => (key === KEY ? principal : null) } as unknown as ApiKeyStore;

describe("authenticate", () => {
  it("reads the Bearer scheme in any case, as HTTP's schemes are case-insensitive", async () => {
    for (const header of [`Bearer ${KEY}`, `bearer ${KEY}`, `BEARER ${KEY}`, `Bearer\t${KEY}`, `Bearer   ${KEY} `]) {
      await expect(authenticate(keys, header), header).resolves.toBe(principal);
    }
  });

  it("refuses another scheme, a bare key or no header, asking for the Bearer form", async () => {
    for (const header of [undefined, KEY, `Basic ${KEY}`, `Bearer${KEY}`, `Bearerx ${KEY}`]) {
      await expect(authenticate(keys, header), String(header)).rejects.toMatchObject({ apiCode: "UNAUTHENTICATED", message: "send an API key as Authorization: Bearer <key>" });
    }
    await expect(authenticate(keys, "bearer vk_unknown")).rejects.toMatchObject({ apiCode: "UNAUTHENTICATED", message: "the API key is unknown or revoked" });
  });
});
