// `scripted:<path>`, `module:<path>`, `chat:<path>` or `http:<url>`: the agent runtime a setting names (--agent,
// VERDICT_AGENT), read here once for the CLI and the worker (loadAgent), which name their setting
// in its errors. Two slips are
// told for what they are: a URL given without the `http:` prefix (`http://host/replay`, whose
// own `http:` then read as the prefix) and one given after it without a scheme
// (`http:localhost:8080`). Their errors suggest the corrected value with the URL's origin alone:
// the rest may carry a password or a token (shownSpec.ts).
import type { AgentRuntime } from "@verdict/domain";
import { scriptLoaded } from "../settings/scriptFile.js";
import { SettingError } from "../settings/wholeNumber.js";
import { ChatAgent } from "./chatAgent.js";
import { HttpAgent } from "./httpAgent.js";
import { ModuleAgent } from "./moduleAgent.js";
import { ScriptedAgent } from "./scriptedAgent.js";
import { shownSpec } from "./shownSpec.js";

export type AgentSpec = { kind: "scripted" | "module" | "chat"; path: string } | { kind: "http"; agent: HttpAgent };

/** A URL's scheme (`https://`, `ftp://`): what `localhost:8080` lacks. */
const SCHEME = /^[a-z][a-z\d+.-]*:\/\//i;

/**
 * The script's or module's path to load, or the http agent built; null for a spec of no known form. A bad URL
 * throws an Error saying what is wrong, without the setting's name and without quoting the URL.
 */
export function agentSpecOf(spec: string): AgentSpec | null {
  const trimmed = spec.trim();
  if (/^https?:\/\//i.test(trimmed)) throw new Error(`the http: prefix is missing before the URL: write ${asSpec(trimmed)} ${shownSpec(spec)}`);
  const match = /^(scripted|module|chat|http):(.+)$/.exec(trimmed);
  if (match?.[1] === "scripted" || match?.[1] === "module" || match?.[1] === "chat") return { kind: match[1], path: match[2] };
  if (match?.[1] !== "http") return null;
  const url = match[2];
  if (!SCHEME.test(url)) throw new Error(`the URL after http: has no scheme (http:// or https://), e.g. ${asSpec(`http://${url}`)} ${shownSpec(spec)}`);
  if (!URL.canParse(url)) throw new Error("http: needs the URL of the host's replay endpoint, e.g. http:https://host/replay (value not shown)");
  return { kind: "http", agent: new HttpAgent({ url }) };
}

/** `http:<url>` with the URL's origin alone (`/…` standing for the rest), or a placeholder URL when it does not parse. */
function asSpec(url: string): string {
  if (!URL.canParse(url)) return `http:${url.startsWith("https:") ? "https" : "http"}://host/replay`;
  const parsed = new URL(url);
  const rest = parsed.pathname !== "/" || parsed.search !== "" || parsed.hash !== "";
  return `http:${parsed.origin}${rest ? "/…" : ""}`;
}

/** The forms a runtime setting takes, for the error that refuses another. */
export const AGENT_FORMS = "scripted:<agent script.yaml>, module:<agent module.mjs>, chat:<chat agent.yaml> or http:<url of your replay endpoint>";

/**
 * The runtime `spec` names, loaded: a script read, a module imported, a chat agent read (its
 * providers from `env`), an http agent built. Every
 * refusal is a SettingError naming `setting` (a bad URL, an unknown form, a file that cannot be
 * read or imported), which the CLI and the worker turn into their own usage errors.
 */
export async function loadAgent(setting: string, spec: string, env: Record<string, string | undefined> = process.env): Promise<AgentRuntime> {
  let parsed: AgentSpec | null;
  try {
    parsed = agentSpecOf(spec);
  } catch (error) {
    throw new SettingError(setting, `${setting}: ${(error as Error).message}`);
  }
  if (parsed?.kind === "scripted") return scriptLoaded(setting, parsed.path, () => ScriptedAgent.load(parsed.path));
  if (parsed?.kind === "module") return scriptLoaded(setting, parsed.path, () => ModuleAgent.load(parsed.path, env));
  if (parsed?.kind === "chat") return scriptLoaded(setting, parsed.path, () => ChatAgent.load(parsed.path, env));
  if (parsed?.kind === "http") return parsed.agent;
  throw new SettingError(setting, `${setting} must be ${AGENT_FORMS} ${shownSpec(spec)}`);
}
