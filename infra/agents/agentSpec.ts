// `scripted:<path>` or `http:<url>`: the agent runtime a setting names (--agent, VERDICT_AGENT),
// read here once for the CLI and the worker, which name their setting in its errors. Two slips are
// told for what they are: a URL given without the `http:` prefix (`http://host/replay`, whose
// own `http:` then read as the prefix) and one given after it without a scheme
// (`http:localhost:8080`). Their errors suggest the corrected value with the URL's origin alone:
// the rest may carry a password or a token (shownSpec.ts).
import { HttpAgent } from "./httpAgent.js";
import { shownSpec } from "./shownSpec.js";

export type AgentSpec = { kind: "scripted"; path: string } | { kind: "http"; agent: HttpAgent };

/** A URL's scheme (`https://`, `ftp://`): what `localhost:8080` lacks. */
const SCHEME = /^[a-z][a-z\d+.-]*:\/\//i;

/**
 * The script's path to load, or the http agent built; null for a spec of neither form. A bad URL
 * throws an Error saying what is wrong, without the setting's name and without quoting the URL.
 */
export function agentSpecOf(spec: string): AgentSpec | null {
  const trimmed = spec.trim();
  if (/^https?:\/\//i.test(trimmed)) throw new Error(`the http: prefix is missing before the URL: write ${asSpec(trimmed)} ${shownSpec(spec)}`);
  const match = /^(scripted|http):(.+)$/.exec(trimmed);
  if (match?.[1] === "scripted") return { kind: "scripted", path: match[2] };
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
