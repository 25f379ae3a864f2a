import { describe, expect, it } from "vitest";
import { KafkaBrokersError } from "../jobbus/kafkaBrokerList.js";
import { PgSettingsError } from "../pg/settings.js";
import { ExitError, processExitCode } from "./processExit.js";
import { SettingError } from "./wholeNumber.js";

describe("processExitCode", () => {
  it("ends a process on a setting the user must change with 2: any SettingError, the PostgreSQL and Kafka settings' own included", () => {
    expect(processExitCode(new SettingError("PORT", "PORT must be a port number 0-65535"))).toBe(2);
    expect(processExitCode(new PgSettingsError("VERDICT_PG_QUERY_TIMEOUT_MS", "VERDICT_PG_QUERY_TIMEOUT_MS must be …"))).toBe(2);
    expect(processExitCode(new KafkaBrokersError("KAFKA_BROKERS", "KAFKA_BROKERS entry 1 is not host:port"))).toBe(2);
  });

  it("ends it with an ExitError's own code, and with 1 on anything else (a database lost, a crash)", () => {
    expect(processExitCode(new ExitError("set DATABASE_URL", 2))).toBe(2);
    expect(processExitCode(new ExitError("other", 3))).toBe(3);
    expect(processExitCode(new Error("connect ECONNREFUSED 127.0.0.1:5432"))).toBe(1);
    expect(processExitCode("not an error")).toBe(1);
  });
});
