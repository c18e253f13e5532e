/**
 * What an agent's request for sign-in becomes for the person (ACP.md, "Sign-in comes three
 * ways"): the methods from `initialize`, those in a -32000 error's `data`, and the hints in
 * its message (Qwen names the variable to set). The agent's own message is kept as it is.
 */
import type { AuthMethodView, AuthRequest } from '../../shared/contract';
import type { AgentDefinition } from '../brokers/agent-definition';
import { acpSdk } from '../util/acp-sdk';

/** The JSON-RPC code real agents (and the SDK's `authRequired`) use to ask for sign-in. */
export const AUTH_REQUIRED_CODE = -32000;

/** The variable Claude's tools want before they run as root. */
export const SANDBOX_ENV = 'IS_SANDBOX';

/** A status line an agent sends as a message when it started without an account ("Not logged in"). */
const AUTH_STATUS = /\bnot (?:logged|signed) in\b|\b(?:log|sign) ?in (?:first|required)\b|\bplease (?:log|sign) ?in\b/i;

export function isAuthStatus(text: string): boolean {
  return AUTH_STATUS.test(text);
}

/** An error that asks for sign-in. */
export function isAuthError(err: unknown): boolean {
  return err instanceof acpSdk().RequestError && err.code === AUTH_REQUIRED_CODE;
}

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
/** A variable named in free text: `OPENAI_API_KEY`, `GEMINI_API_KEY`, `ANTHROPIC_AUTH_TOKEN`. */
const ENV_IN_TEXT = /\b([A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:API_KEY|KEY|TOKEN))\b/g;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The first environment variable name under `_meta` (any of the names agents use for it), two levels deep. */
function envVarIn(meta: unknown, depth = 0): string | undefined {
  if (!isObj(meta) || depth > 2) return undefined;
  for (const key of ['envVar', 'env_var', 'varName', 'envVarName', 'env']) {
    const v = str(meta[key]);
    if (v && ENV_NAME.test(v)) return v;
  }
  for (const value of Object.values(meta)) {
    const found = envVarIn(value, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function terminalCommand(method: Obj, agent: AgentDefinition): string | undefined {
  const meta = isObj(method._meta) ? method._meta : {};
  const t = meta['terminal-auth'];
  if (isObj(t) && str(t.command)) {
    const args = Array.isArray(t.args) ? t.args.filter((a): a is string => typeof a === 'string') : [];
    return [t.command as string, ...args].map(shellQuote).join(' ');
  }
  if (method.type === 'terminal') {
    // ACP's terminal method: the agent's own command line with the method's extra arguments and environment.
    const env = isObj(method.env) ? Object.entries(method.env).map(([k, v]) => `${k}=${shellQuote(String(v))}`) : [];
    const args = Array.isArray(method.args) ? method.args.filter((a): a is string => typeof a === 'string') : [];
    return [...env, ...[agent.command, ...agent.args, ...args].map(shellQuote)].join(' ');
  }
  return undefined;
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** One method as the agent listed it (unknown shapes are skipped, never a crash). */
export function toMethodView(raw: unknown, agent: AgentDefinition): AuthMethodView | undefined {
  if (!isObj(raw)) return undefined;
  const id = str(raw.id);
  if (!id) return undefined;
  const name = str(raw.name) ?? id;
  const description = str(raw.description);
  const base = { id, name, ...(description ? { description } : {}) };
  const command = terminalCommand(raw, agent);
  if (command) return { ...base, kind: 'terminal', command };
  const varName =
    str(raw.varName) ??
    (Array.isArray(raw.vars) && isObj(raw.vars[0]) ? str(raw.vars[0].name) : undefined) ??
    envVarIn(raw._meta);
  if (raw.type === 'env_var' || (varName && ENV_NAME.test(varName))) {
    return varName ? { ...base, kind: 'env_var', envVar: varName } : undefined;
  }
  return { ...base, kind: 'agent' };
}

export interface AuthContext {
  agent: AgentDefinition;
  /** What `initialize` listed (`authMethods`). */
  listed: readonly unknown[];
  /** The agent's stderr tail, read for the root refusal. */
  stderrTail?: readonly string[];
  /** Whether the host runs as root (`process.getuid?.() === 0`). */
  root: boolean;
}

/** The methods from `data` (an array, or `{authMethods}`) of an error. */
function methodsInData(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (isObj(data) && Array.isArray(data.authMethods)) return data.authMethods;
  return [];
}

/**
 * Everything the person can act on: the listed methods and those in the error's `data`
 * (deduplicated by id), a variable the message names that no method covers, and for an agent
 * that refuses to run as root, `IS_SANDBOX` with a hint.
 */
export function buildAuthRequest(message: string, data: unknown, during: AuthRequest['during'], c: AuthContext): AuthRequest {
  const methods: AuthMethodView[] = [];
  for (const raw of [...c.listed, ...methodsInData(data)]) {
    const view = toMethodView(raw, c.agent);
    if (view && !methods.some((m) => m.id === view.id)) methods.push(view);
  }
  for (const match of message.matchAll(ENV_IN_TEXT)) {
    const name = match[1] as string;
    if (methods.some((m) => m.envVar === name)) continue;
    methods.push({ id: `env:${name}`, name: `Set ${name}`, kind: 'env_var', envVar: name, fromHint: true });
  }
  const hint = rootHint(message, c);
  if (hint && !methods.some((m) => m.envVar === SANDBOX_ENV)) {
    methods.push({ id: `env:${SANDBOX_ENV}`, name: `Set ${SANDBOX_ENV}=1`, kind: 'env_var', envVar: SANDBOX_ENV, fromHint: true });
  }
  return { message, methods, during, ...(hint ? { hint } : {}) };
}

const ROOT_REFUSAL =
  /--dangerously-skip-permissions|\b(running|run|runs) as root\b|\b(root|sudo)\b[^\n]{0,60}\b(privileges?|not (allowed|permitted|supported)|refus)|\b(cannot|can't|refus\w*|not allowed)\b[^\n]{0,60}\b(root|sudo)\b/i;

/** Claude's tools refuse to run as root unless told they run in a sandbox. */
export function rootHint(message: string, c: Pick<AuthContext, 'root' | 'stderrTail'>): string | undefined {
  if (!c.root) return undefined;
  const text = [message, ...(c.stderrTail ?? [])].join('\n');
  // A refusal *because of* root, not any mention of the word (a "project root" in a log line).
  if (!ROOT_REFUSAL.test(text)) return undefined;
  return `This agent refuses to run as root unless it is told it runs in a sandbox: set ${SANDBOX_ENV}=1 in its environment.`;
}

