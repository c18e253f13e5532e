import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * A local OpenAI-compatible model for agents that speak the chat-completions API (Qwen Code):
 * loopback only, port 0, no network. It is scripted, not clever: in a conversation whose user
 * message holds `trigger`, where the agent offers a file-writing tool and no tool has answered
 * yet, it calls that tool to write `file` with `content`; once the tool's result is in the
 * conversation it answers with `finalText`. A user message holding `toolsTrigger` is answered
 * with the names of the tools the agent offered, and of those its search tool found for
 * `toolsQuery` (agents that hide tools behind one, as Qwen Code does its MCP servers' tools,
 * answer that search first), so a test sees in the window which tools an agent took from its
 * MCP servers. Anything else (an agent's side requests: titles, classifiers) gets a short plain
 * answer.
 */
export interface StandInScript {
  /** Words of the person's prompt that start the scripted turn (agents also send side requests). */
  trigger: string;
  /** The session folder: agents want absolute paths (Qwen refuses relative ones). */
  folder: string;
  /** File name inside the session folder. */
  file: string;
  content: string;
  finalText: string;
  /** Words of the person's prompt that ask which tools the agent offers the model. */
  toolsTrigger?: string;
  /** What to ask the agent's tool search for (Qwen Code's `tool_search`), when it offers one. */
  toolsQuery?: string;
}

/** How the stand-in answers `toolsTrigger`: the tool names, one line. */
export const TOOLS_ANSWER_PREFIX = 'The tools offered to me:';
/** Then, where it searched: the names the search returned. */
export const TOOLS_FOUND_PREFIX = 'Found by searching:';
/** Search tools the stand-in knows how to call (their query parameter is `query`). */
const SEARCH_TOOLS = ['tool_search'];

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: unknown[];
}
interface ToolSpec {
  type?: string;
  function?: { name?: string; description?: string; parameters?: { properties?: Record<string, unknown>; required?: string[] } };
}
export interface ChatRequest {
  model?: string;
  stream?: boolean;
  messages?: ChatMessage[];
  tools?: ToolSpec[];
}

export interface StandInModel {
  /** The base URL agents take as OPENAI_BASE_URL (ends in /v1). */
  baseUrl: string;
  model: string;
  /** Every chat request, in order: tests inspect which tools the agent offered. */
  readonly requests: ChatRequest[];
  /** The tool calls the stand-in made. */
  readonly toolCalls: { name: string; arguments: Record<string, unknown> }[];
  close(): Promise<void>;
}

/** Write tools the stand-in knows how to call, by name, with how to fill their arguments. */
const WRITE_TOOLS = ['write_file', 'WriteFile', 'write'];

/** Arguments for the agent's write tool, shaped by the parameter names it declared. */
function toolArguments(tool: ToolSpec, script: StandInScript): Record<string, unknown> {
  const props = Object.keys(tool.function?.parameters?.properties ?? {});
  const pathKey = props.find((p) => /^(file_?path|path|absolute_path|filename)$/i.test(p)) ?? 'file_path';
  const contentKey = props.find((p) => /^(content|contents|text)$/i.test(p)) ?? 'content';
  return { [pathKey]: join(script.folder, script.file), [contentKey]: script.content };
}

/** A message's text, whether the agent sent a string or content parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
  return '';
}

type Reply = { kind: 'text'; text: string } | { kind: 'tool'; id: string; name: string; arguments: Record<string, unknown> };

function decide(req: ChatRequest, script: StandInScript, callCount: number): Reply {
  const messages = req.messages ?? [];
  const lastUserAt = messages.findLastIndex((m) => m.role === 'user');
  if (script.toolsTrigger && lastUserAt >= 0 && textOf(messages[lastUserAt]!.content).includes(script.toolsTrigger)) {
    return toolsReply(req, messages.slice(lastUserAt + 1), script, callCount);
  }
  const asked = messages.some((m) => m.role === 'user' && textOf(m.content).includes(script.trigger));
  if (!asked) return { kind: 'text', text: 'OK' };
  const toolAnswered = messages.some((m) => m.role === 'tool');
  const writeTool = (req.tools ?? []).find((t) => WRITE_TOOLS.includes(t.function?.name ?? ''));
  if (toolAnswered) return { kind: 'text', text: script.finalText };
  if (writeTool) {
    return { kind: 'tool', id: `call_stand_in_${callCount + 1}`, name: writeTool.function!.name!, arguments: toolArguments(writeTool, script) };
  }
  return { kind: 'text', text: 'OK' };
}

/** The answer to `toolsTrigger`: search first where the agent offers a search tool, then name what is there. */
function toolsReply(req: ChatRequest, since: ChatMessage[], script: StandInScript, callCount: number): Reply {
  const names = (req.tools ?? []).map((t) => t.function?.name).filter((n): n is string => typeof n === 'string');
  const search = names.find((n) => SEARCH_TOOLS.includes(n));
  const results = since.filter((m) => m.role === 'tool').map((m) => textOf(m.content));
  if (search && script.toolsQuery && results.length === 0) {
    return { kind: 'tool', id: `call_stand_in_${callCount + 1}`, name: search, arguments: { query: script.toolsQuery } };
  }
  // A search answers with function declarations: their `"name": "…"` fields are the tools found.
  const found = [...new Set(results.flatMap((r) => [...r.matchAll(/"name"\s*:\s*"([^"]+)"/g)].map((m) => m[1]!)))];
  return { kind: 'text', text: `${TOOLS_ANSWER_PREFIX} ${names.join(', ')}.${found.length ? ` ${TOOLS_FOUND_PREFIX} ${found.join(', ')}.` : ''}` };
}

function sse(res: ServerResponse, data: unknown): void {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

function answer(res: ServerResponse, req: ChatRequest, reply: Reply, model: string): void {
  const id = `chatcmpl-stand-in-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
  const finish = reply.kind === 'tool' ? 'tool_calls' : 'stop';
  const toolCall = reply.kind === 'tool' ? { id: reply.id, type: 'function', function: { name: reply.name, arguments: JSON.stringify(reply.arguments) } } : undefined;
  if (!req.stream) {
    const message = reply.kind === 'text' ? { role: 'assistant', content: reply.text } : { role: 'assistant', content: null, tool_calls: [toolCall] };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta: unknown, finish_reason: string | null, extra: object = {}) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason }],
    ...extra,
  });
  sse(res, chunk({ role: 'assistant', content: '' }, null));
  if (reply.kind === 'text') {
    // Streamed in a few pieces, as a real model would.
    for (const piece of reply.text.match(/.{1,12}/gs) ?? []) sse(res, chunk({ content: piece }, null));
  } else {
    // The arguments arrive in two fragments: agents must reassemble them.
    const args = toolCall!.function.arguments;
    const half = Math.floor(args.length / 2);
    sse(res, chunk({ tool_calls: [{ index: 0, id: reply.id, type: 'function', function: { name: reply.name, arguments: args.slice(0, half) } }] }, null));
    sse(res, chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }, null));
  }
  sse(res, chunk({}, finish, { usage }));
  res.write('data: [DONE]\n\n');
  res.end();
}

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const part of req) text += (part as Buffer).toString();
  return text;
}

export async function startStandInModel(script: StandInScript, model = 'stand-in-model'): Promise<StandInModel> {
  const requests: ChatRequest[] = [];
  const toolCalls: StandInModel['toolCalls'] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'GET' && path === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'switchboard-tests' }] }));
        return;
      }
      if (req.method === 'POST' && path === '/v1/chat/completions') {
        let parsed: ChatRequest;
        try {
          parsed = JSON.parse(await body(req)) as ChatRequest;
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'invalid JSON', type: 'invalid_request_error' } }));
          return;
        }
        requests.push(parsed);
        const reply = decide(parsed, script, toolCalls.length);
        if (reply.kind === 'tool') toolCalls.push({ name: reply.name, arguments: reply.arguments });
        answer(res, parsed, reply, model);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}`, type: 'not_found' } }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    model,
    requests,
    toolCalls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
