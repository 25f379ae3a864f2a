// VERDICT_HEALTH_PORT / VERDICT_HEALTH_HOST: where a worker or a projector answers its probes
// (probeServer.ts). Off unless the port is set: a process with no port of its own opens none
// unasked. Read as every whole-number setting is (infra/settings/wholeNumber.ts).
import { parseWholeNumber, SettingError } from "../settings/wholeNumber.js";

export interface HealthPort {
  port: number;
  host: string;
}

const PORT_RULE = { min: 0, max: 65535, noun: "port number" };

/** The probe port asked for, or null when VERDICT_HEALTH_PORT is unset (no port is opened). */
export function healthPortFromEnv(env: Readonly<Record<string, string | undefined>>): HealthPort | null {
  const rawPort = env.VERDICT_HEALTH_PORT;
  if (rawPort === undefined) return null;
  const port = parseWholeNumber("VERDICT_HEALTH_PORT", rawPort, PORT_RULE);
  const rawHost = env.VERDICT_HEALTH_HOST;
  if (rawHost !== undefined && rawHost.trim() === "") {
    throw new SettingError("VERDICT_HEALTH_HOST", `VERDICT_HEALTH_HOST must be a host name or IP address of this machine to listen on (default 127.0.0.1; 0.0.0.0 for every interface) (got ${JSON.stringify(rawHost)})`);
  }
  return { port, host: rawHost?.trim() ?? "127.0.0.1" };
}
