/**
 * MCP servers a person gives their agents (Settings → MCP servers), as the window sees them.
 *
 * Each is one of ACP's three `McpServer` kinds: `stdio` (a command, its arguments and
 * environment), `http` (streamable HTTP) and `sse`, each with a URL and headers; and the
 * agents it is turned on for. An environment value or header value may be secret (an API key,
 * a bearer token): a secret crosses the contract only towards the host, when it is set, and
 * comes back as its name and whether it is set; the host keeps its value in the secret box,
 * never in SQLite or a log, and puts it into `mcpServers` only when a session starts.
 */
import { z } from 'zod';
import { AgentId, EnvName } from './catalogue';

export const MCP_SERVER_TYPES = ['stdio', 'http', 'sse'] as const;
export const McpServerType = z.enum(MCP_SERVER_TYPES);

/** The name the agent knows the server by (its tools are often prefixed with it). */
export const McpServerName = z
  .string()
  .trim()
  .min(1, 'name is empty')
  .max(100)
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'no control characters');

/** An HTTP header name (an RFC 9110 token). */
export const HeaderName = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'letters, digits and !#$%&\'*+.^_`|~-');

/** Line breaks in a header value would let it write other headers. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const headerValue = z.string().max(32_768).regex(/^[^\r\n\u0000]*$/, 'no line breaks');
const envValue = z.string().max(32_768);

/** `http:` or `https:` only: what the MCP SDK's HTTP and SSE transports connect to. */
export const McpUrl = z
  .string()
  .trim()
  .max(8_192)
  .regex(/^https?:\/\/[^\s]+$/i, 'an http:// or https:// address');

/** A variable as saved: a secret without a value keeps the one stored. */
const saveVar = <N extends z.ZodType<string>, V extends z.ZodType<string>>(name: N, value: V) =>
  z.object({ name, secret: z.boolean().default(false), value: value.optional() }).strict();
export const SaveMcpEnv = saveVar(EnvName, envValue);
export const SaveMcpHeader = saveVar(HeaderName, headerValue);

const saveBase = {
  /** Absent: a new server. */
  id: z.string().min(1).max(64).optional(),
  name: McpServerName,
  /** The agents that get it in their sessions. */
  agentIds: z.array(AgentId).max(256).default([]),
};

export const SaveMcpServer = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('stdio'), ...saveBase, command: z.string().trim().min(1, 'command is empty').max(4096), args: z.array(z.string().max(4096)).max(256).default([]), env: z.array(SaveMcpEnv).max(256).default([]) }).strict(),
    z.object({ type: z.literal('http'), ...saveBase, url: McpUrl, headers: z.array(SaveMcpHeader).max(256).default([]) }).strict(),
    z.object({ type: z.literal('sse'), ...saveBase, url: McpUrl, headers: z.array(SaveMcpHeader).max(256).default([]) }).strict(),
  ])
  .superRefine((s, ctx) => {
    const [key, vars, fold] = s.type === 'stdio' ? (['env', s.env, false] as const) : (['headers', s.headers, true] as const);
    const seen = new Set<string>();
    vars.forEach((v, i) => {
      // Header names are case-insensitive; environment names are not (on POSIX).
      const id = fold ? v.name.toLowerCase() : v.name;
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [key, i, 'name'], message: `${v.name} is listed twice` });
      seen.add(id);
      if (!v.secret && v.value === undefined) ctx.addIssue({ code: 'custom', path: [key, i, 'value'], message: 'needs a value' });
    });
    if (new Set(s.agentIds).size !== s.agentIds.length) ctx.addIssue({ code: 'custom', path: ['agentIds'], message: 'an agent is listed twice' });
  });

/** A stored variable: a secret shows only its name and whether a value is set. */
export const McpVarView = z.object({
  name: z.string(),
  secret: z.boolean(),
  value: z.string().optional(),
  set: z.boolean(),
});

/** What the last `Test` found: the server's tools, or why it could not list them. */
export const McpTestResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    at: z.number(),
    durationMs: z.number(),
    server: z.object({ name: z.string(), version: z.string() }).optional(),
    tools: z.array(z.object({ name: z.string(), title: z.string().optional(), description: z.string().optional() })),
  }),
  z.object({
    ok: z.literal(false),
    at: z.number(),
    durationMs: z.number(),
    /**
     * `spawn_failed`: the command could not start; `exited`: it stopped before answering;
     * `timeout`: no answer in time (the process is killed); `connect_failed`: the URL refused
     * or failed; `protocol`: it answered, but not as an MCP server; `missing_secret`: a secret
     * it needs is not in the secret box.
     */
    reason: z.enum(['spawn_failed', 'exited', 'timeout', 'connect_failed', 'protocol', 'missing_secret']),
    message: z.string(),
    stderrTail: z.array(z.string()),
  }),
]);

const viewBase = {
  name: z.string(),
  agentIds: z.array(z.string()),
};
const stdioView = { type: z.literal('stdio'), command: z.string(), args: z.array(z.string()), env: z.array(McpVarView) };
const httpView = { url: z.string(), headers: z.array(McpVarView) };

/** A server as it is configured, without any secret value. */
export const McpServerDraftView = z.discriminatedUnion('type', [
  z.object({ ...viewBase, ...stdioView }),
  z.object({ ...viewBase, type: z.literal('http'), ...httpView }),
  z.object({ ...viewBase, type: z.literal('sse'), ...httpView }),
]);

const storedBase = { id: z.string(), createdAt: z.number(), updatedAt: z.number(), lastTest: McpTestResult.optional() };
export const McpServerView = z.discriminatedUnion('type', [
  z.object({ ...viewBase, ...storedBase, ...stdioView }),
  z.object({ ...viewBase, ...storedBase, type: z.literal('http'), ...httpView }),
  z.object({ ...viewBase, ...storedBase, type: z.literal('sse'), ...httpView }),
]);

/**
 * What a session was given, for its details: each server enabled for its agent, and why one
 * was left out (`http`/`sse` the agent does not take, a secret that could not be read).
 * `target` is the command line or the URL without its query (which may carry a token).
 */
export const McpSessionServer = z.object({
  name: z.string(),
  type: McpServerType,
  target: z.string(),
  skipped: z.string().optional(),
});

export const MCP_IMPORT_SOURCES = ['claude-desktop', 'claude-code', 'gemini-cli'] as const;
export const McpImportSource = z.enum(MCP_IMPORT_SOURCES);

/** One server found in another tool's configuration, shown before anything is added. */
export const McpImportCandidate = z.object({
  /** Names this candidate when the person chooses to add it (the host reads the file again). */
  key: z.string(),
  source: McpImportSource,
  file: z.string(),
  /** `user`: the person's own servers; `project`: a project's shared file; `local`: a project's entry in the person's own file. */
  scope: z.enum(['user', 'project', 'local']),
  project: z.string().optional(),
  server: McpServerDraftView,
  /** What will not carry over as it is (a working folder ACP cannot pass, `${VAR}` references…). */
  warnings: z.array(z.string()),
});

export const McpImportReport = z.object({
  candidates: z.array(McpImportCandidate),
  /** Files that exist but could not be read as that tool's configuration. */
  problems: z.array(z.object({ file: z.string(), message: z.string() })),
  /** Every file looked for, found or not. */
  searched: z.array(z.string()),
});

// Requests and pushes (for the contract).
export const ByMcpServer = z.object({ serverId: z.string().min(1).max(64) }).strict();
export const EnableMcpServer = z.object({ serverId: z.string().min(1).max(64), agentId: AgentId, enabled: z.boolean() }).strict();
export const McpServerList = z.object({ servers: z.array(McpServerView) });
/** Adds the candidates of a fresh scan named by `key`, turned on for `agentIds`. */
export const ImportMcpServers = z
  .object({ keys: z.array(z.string().min(1).max(8_192)).min(1).max(500), agentIds: z.array(AgentId).max(256).default([]) })
  .strict();
export const McpImportResult = z.object({
  added: z.array(McpServerView),
  /** Keys no longer found when the files were read again (changed since the scan). */
  missing: z.array(z.string()),
});
/** A step of a `Test`, to the window that asked. */
export const McpTestStep = z.enum(['starting', 'listing', 'done']);
export const McpTestProgress = z.object({ serverId: z.string(), step: McpTestStep, elapsedMs: z.number() });

export type McpServerTypeT = z.output<typeof McpServerType>;
export type SaveMcpServerT = z.output<typeof SaveMcpServer>;
export type SaveMcpServerInput = z.input<typeof SaveMcpServer>;
export type SaveMcpVarT = z.output<typeof SaveMcpEnv>;
export type McpVarViewT = z.output<typeof McpVarView>;
export type McpTestResultT = z.output<typeof McpTestResult>;
export type McpServerDraftViewT = z.output<typeof McpServerDraftView>;
export type McpServerViewT = z.output<typeof McpServerView>;
export type McpSessionServerT = z.output<typeof McpSessionServer>;
export type McpImportSourceT = z.output<typeof McpImportSource>;
export type McpImportCandidateT = z.output<typeof McpImportCandidate>;
export type McpImportReportT = z.output<typeof McpImportReport>;
export type McpServerListT = z.output<typeof McpServerList>;
export type McpImportResultT = z.output<typeof McpImportResult>;
export type McpTestStepT = z.output<typeof McpTestStep>;
export type McpTestProgressT = z.output<typeof McpTestProgress>;

/** Names and values that read like credentials: imported and suggested as secret. */
const SECRET_NAME = /key|token|secret|passw|pwd|auth|credential|cookie|session|bearer|private|signature|cert/i;

/**
 * Whether an imported variable's value should go to the secret box: its name reads like a
 * credential, or its value does (a long unbroken run of letters and digits, a bearer token,
 * a `sk-…`/`ghp_…`-style key). Errs towards secret: a secret is still usable, only not shown.
 */
export function looksSecret(name: string, value: string): boolean {
  if (SECRET_NAME.test(name)) return true;
  if (/^(bearer|basic|token)\s+\S+/i.test(value)) return true;
  if (/^[A-Za-z]{2,5}[-_][A-Za-z0-9_-]{16,}$/.test(value)) return true;
  return value.length >= 24 && /^[A-Za-z0-9+/=_.-]+$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value) && !value.includes('/');
}
