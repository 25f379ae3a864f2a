import { describe, expect, it } from "vitest";
import { SettingError } from "@verdict/infra/settings";
import { checkCorsOrigins, corsOriginsFromEnv } from "./cors.js";

const RULE = "origins as a browser sends them, comma separated (scheme://host[:port], http or https, no path, no trailing slash, e.g. https://dash.example.com), or * alone for any origin";

describe("VERDICT_API_CORS_ORIGINS", () => {
  it("is no CORS when unset or blank, and otherwise the origins it lists, each trimmed", () => {
    expect(corsOriginsFromEnv({})).toBeUndefined();
    expect(corsOriginsFromEnv({ VERDICT_API_CORS_ORIGINS: " " })).toBeUndefined();
    expect(corsOriginsFromEnv({ VERDICT_API_CORS_ORIGINS: "https://dash.example.com, http://localhost:3000" })).toEqual(["https://dash.example.com", "http://localhost:3000"]);
    expect(corsOriginsFromEnv({ VERDICT_API_CORS_ORIGINS: "http://[::1]:8080" })).toEqual(["http://[::1]:8080"]);
    expect(corsOriginsFromEnv({ VERDICT_API_CORS_ORIGINS: "*" })).toEqual(["*"]);
  });

  it("refuses at start, naming the variable, the rule and the entry, whatever is not an origin as a browser sends it", () => {
    const refused: Array<[string, string, string]> = [
      ["https://dash.example.com/", "https://dash.example.com/", "not an origin as a browser sends it: https://dash.example.com"],
      ["https://dash.example.com/app", "https://dash.example.com/app", "not an origin as a browser sends it: https://dash.example.com"],
      ["https://DASH.example.com", "https://DASH.example.com", "not an origin as a browser sends it: https://dash.example.com"],
      ["https://dash.example.com:443", "https://dash.example.com:443", "not an origin as a browser sends it: https://dash.example.com"],
      ["dash.example.com", "dash.example.com", "not a URL"],
      ["ftp://files.example.com", "ftp://files.example.com", "not http or https"],
      ["https://*.example.com", "https://*.example.com", "no wildcards inside an origin: list each origin, or * alone for any"],
      ["*, https://dash.example.com", "*", "* allows any origin, so it is given alone"],
      ["https://dash.example.com,", "", "an empty entry (two commas, or one at an end)"],
      ["null", "null", "not a URL"],
    ];
    for (const [value, entry, problem] of refused) {
      let thrown: unknown;
      try {
        corsOriginsFromEnv({ VERDICT_API_CORS_ORIGINS: value });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, value).toBeInstanceOf(SettingError);
      expect((thrown as SettingError).setting, value).toBe("VERDICT_API_CORS_ORIGINS");
      expect((thrown as Error).message, value).toBe(`VERDICT_API_CORS_ORIGINS must be ${RULE} (got ${JSON.stringify(entry)}: ${problem})`);
    }
  });

  it("holds createApiServer's corsOrigins to the same rule, naming the option", () => {
    expect(() => checkCorsOrigins(["https://dash.example.com/"], "corsOrigins")).toThrow(/^corsOrigins must be origins as a browser sends them/);
    expect(checkCorsOrigins([], "corsOrigins")).toEqual([]);
  });
});
