// A local HTTP server that speaks two model providers' APIs, for tests of the code that calls
// them through their real client libraries (the AI SDK): OpenAI's chat completions (also what
// OpenRouter and Ollama serve) at POST /v1/chat/completions, and Anthropic's Messages API at
// POST /v1/messages. It checks the key each API sends, answers what the test scripts, and keeps
// every request it was sent. On the chat API it can also answer with tool calls, for an agent
// loop's steps (the SDK then sends the tools' results back as `tool` messages). A wrong key gets the provider's 401, echoing the key it was given,
// as providers' error bodies do: code that passes provider errors on must not pass that on.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ProviderRequest {
  api: "chat" | "messages";
  model: string;
  /** The system instructions: OpenAI's system message, Anthropic's `system`. */
  system: string | null;
  /** The user message's text. */
  prompt: string;
  /** The contents of the `tool` messages sent (chat API), oldest first: the results of earlier calls. */
  toolResults: string[];
  /** The tools offered (chat API): each one's name, description and parameters' schema. */
  tools: Array<{ name: string; description?: string; parameters?: unknown }>;
  headers: IncomingMessage["headers"];
}

/** Tool calls to answer with on the chat API (`finish_reason: "tool_calls"`): each a tool's name and its arguments. */
interface ToolCallsAnswer {
  toolCalls: Array<{ name: string; arguments: Record<string, unknown> }>;
}

/** An answer's text, tool calls, or a refusal with its status and body; a promise of one answers late. */
export type ProviderAnswer = string | ToolCallsAnswer | { status: number; body: unknown };

export interface FakeModelProvider {
  /** http://127.0.0.1:<port>/v1 */
  readonly baseURL: string;
  readonly requests: ProviderRequest[];
  /** Requests whose client hung up before they were answered. */
  readonly abandoned: ProviderRequest[];
  /** A model id to answer with instead of the one asked for. */
  modelId: string | null;
  close(): Promise<void>;
}

export async function startFakeModelProvider(options: { apiKey: string; answer: (request: ProviderRequest) => ProviderAnswer | Promise<ProviderAnswer> }): Promise<FakeModelProvider> {
  const requests: ProviderRequest[] = [];
  const abandoned: ProviderRequest[] = [];
  const provider = { modelId: null as string | null };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", async () => {
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(payload));
      };
      const api = req.url === "/v1/chat/completions" ? "chat" : req.url === "/v1/messages" ? "messages" : null;
      if (req.method !== "POST" || api === null) return send(404, { error: { message: `no route ${req.method} ${req.url}` } });
      const given = api === "chat" ? (req.headers.authorization ?? "").replace(/^Bearer /, "") : String(req.headers["x-api-key"] ?? "");
      if (given !== options.apiKey) return send(401, { error: { type: "authentication_error", message: `Incorrect API key provided: ${given}` } });
      const json = JSON.parse(body) as Record<string, unknown>;
      const request = api === "chat" ? chatRequest(json, req.headers) : messagesRequest(json, req.headers);
      requests.push(request);
      res.on("close", () => {
        if (!res.writableEnded) abandoned.push(request);
      });
      const answer = await options.answer(request);
      if (res.destroyed) return;
      if (typeof answer !== "string" && "toolCalls" in answer) {
        if (api !== "chat") return send(500, { error: { message: "the fake answers tool calls on the chat API only" } });
        return send(200, chatCompletion(request, provider.modelId, null, answer.toolCalls));
      }
      if (typeof answer !== "string") return send(answer.status, answer.body);
      const usage = usageOf(request, answer);
      if (api === "chat") return send(200, chatCompletion(request, provider.modelId, answer, []));
      send(200, {
        id: "msg_fake",
        type: "message",
        role: "assistant",
        model: provider.modelId ?? `${request.model}-20260101`,
        content: [{ type: "text", text: answer }],
        stop_reason: "end_turn",
        usage: { input_tokens: usage.input, output_tokens: usage.output },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(provider, {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    abandoned,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** Tokens as a provider would count them, roughly: 4 characters a token. */
function usageOf(request: ProviderRequest, answer: string): { input: number; output: number } {
  return { input: Math.ceil((request.prompt.length + (request.system?.length ?? 0)) / 4), output: Math.ceil(answer.length / 4) };
}

function chatCompletion(request: ProviderRequest, modelId: string | null, content: string | null, toolCalls: ToolCallsAnswer["toolCalls"]) {
  const usage = usageOf(request, content ?? JSON.stringify(toolCalls));
  const calls = toolCalls.map((call, index) => ({
    id: `call_${request.toolResults.length}_${index}`,
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1_764_000_000,
    model: modelId ?? `${request.model}-2026-01-01`,
    choices: [{ index: 0, message: { role: "assistant", content, ...(calls.length > 0 ? { tool_calls: calls } : {}) }, finish_reason: calls.length > 0 ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? "").join("");
  return "";
}

function chatRequest(json: Record<string, unknown>, headers: IncomingMessage["headers"]): ProviderRequest {
  const messages = (json.messages ?? []) as { role: string; content: unknown }[];
  const system = messages.find((m) => m.role === "system" || m.role === "developer");
  const user = messages.filter((m) => m.role === "user").pop();
  const toolResults = messages.filter((m) => m.role === "tool").map((m) => textOf(m.content));
  const tools = ((json.tools ?? []) as Array<{ function?: { name: string; description?: string; parameters?: unknown } }>).flatMap((t) => (t.function ? [t.function] : []));
  return { api: "chat", model: String(json.model), system: system ? textOf(system.content) : null, prompt: textOf(user?.content), toolResults, tools, headers };
}

function messagesRequest(json: Record<string, unknown>, headers: IncomingMessage["headers"]): ProviderRequest {
  const messages = (json.messages ?? []) as { role: string; content: unknown }[];
  const user = messages.filter((m) => m.role === "user").pop();
  const system = json.system === undefined ? null : textOf(json.system);
  return { api: "messages", model: String(json.model), system, prompt: textOf(user?.content), toolResults: [], tools: [], headers };
}
