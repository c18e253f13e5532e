import type { AgentLogEntryT } from '../../shared/contract';

/** Longest text kept of one ACP message in the log: enough to read it, not a whole file's contents. */
export const MAX_MESSAGE_CHARS = 2_000;
/** Longest line buffered while waiting for its newline; a longer one is cut (the SDK has its own limit). */
const MAX_PENDING_BYTES = 1 << 20;

/** Keys whose values are never logged: environment variables, keys, tokens, passwords. */
const SECRET_NAME = /^(env|headers|authorization|cookie|password|passwd|secret|token|credentials?|api[-_]?key)$|[-_](token|secret|password|key)$/i;
/** camelCase names ending in a secret word (`accessToken`, `clientSecret`); not `totalTokens`. */
const SECRET_SUFFIX = /[a-z0-9](Token|Secret|Password|Key)$/;
const isSecret = (key: string): boolean => SECRET_NAME.test(key) || SECRET_SUFFIX.test(key);
const REDACTED = '[redacted]';
const MAX_DEPTH = 12;

/**
 * A copy of a JSON-RPC message with every secret value replaced: values under keys that name
 * one (env, tokens, keys, passwords, headers) and `{name, value}` pairs of an env list.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = isSecret(key) ? REDACTED : redact(v, depth + 1);
  return out;
}

/** `text` cut to `max` characters, saying how much was left out. */
export function truncate(text: string, max = MAX_MESSAGE_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** One NDJSON line as a log entry: its method (a response has none) and its redacted text. */
export function protocolEntry(direction: 'in' | 'out', line: string, at: number): AgentLogEntryT {
  let method: string | undefined;
  let text: string;
  try {
    const message = JSON.parse(line) as unknown;
    if (message && typeof message === 'object' && 'method' in message && typeof message.method === 'string') method = message.method;
    text = JSON.stringify(redact(message));
  } catch {
    // Not JSON: the SDK answers it with a parse error; the log shows what was sent, cut short.
    text = line;
  }
  return { kind: 'protocol', at, direction, ...(method === undefined ? {} : { method }), text: truncate(text) };
}

/**
 * Splits one direction of the byte stream into lines. It runs only while the tap is on, so
 * the connection's own parsing is untouched and costs nothing extra when it is off.
 */
export class LineSplitter {
  private pending = '';
  private readonly decoder = new TextDecoder();

  push(chunk: Uint8Array): string[] {
    const text = this.pending + this.decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    this.pending = lines.pop() ?? '';
    if (this.pending.length > MAX_PENDING_BYTES) {
      lines.push(this.pending);
      this.pending = '';
    }
    return lines.filter((l) => l.trim() !== '');
  }

  /** The tap was turned off or on: a half line from before is not the start of the next one. */
  reset(): void {
    this.pending = '';
  }
}
