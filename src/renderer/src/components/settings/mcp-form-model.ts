/**
 * The MCP server form as data: a draft from a stored server, the request the host takes, and
 * each field's problem in words, checked with the contract's own schema before anything is sent.
 */
import { SaveMcpServer, type McpServerTypeT, type McpServerViewT, type McpVarViewT, type SaveMcpServerInput } from '../../../../shared/contract';

export interface VarRow {
  key: number;
  name: string;
  value: string;
  secret: boolean;
  /** A stored secret: an empty value keeps it. */
  stored: boolean;
}

export interface McpDraft {
  id: string | undefined;
  type: McpServerTypeT;
  name: string;
  command: string;
  /** One argument per line. */
  args: string;
  url: string;
  /** Environment (stdio) or headers (HTTP, SSE). */
  vars: VarRow[];
  agentIds: string[];
}

let rowKeys = 0;
export const varRow = (over: Partial<VarRow> = {}): VarRow => ({ key: ++rowKeys, name: '', value: '', secret: false, stored: false, ...over });

/** Variables and headers by name; a secret only says whether it is set. */
export const varsText = (vars: readonly McpVarViewT[]): string => vars.map((v) => (v.secret ? `${v.name} (secret, ${v.set ? 'set' : 'not set'})` : `${v.name}=${v.value ?? ''}`)).join(', ');

export const TYPE_LABELS: Record<McpServerTypeT, string> = { stdio: 'Local command (stdio)', http: 'HTTP', sse: 'SSE' };

export function draftOf(server: McpServerViewT | undefined, agentIds: readonly string[] = []): McpDraft {
  if (!server) return { id: undefined, type: 'stdio', name: '', command: '', args: '', url: '', vars: [], agentIds: [...agentIds] };
  const vars = (server.type === 'stdio' ? server.env : server.headers).map((v) => varRow({ name: v.name, value: v.value ?? '', secret: v.secret, stored: v.secret && v.set }));
  return {
    id: server.id,
    type: server.type,
    name: server.name,
    command: server.type === 'stdio' ? server.command : '',
    args: server.type === 'stdio' ? server.args.join('\n') : '',
    url: server.type === 'stdio' ? '' : server.url,
    vars,
    agentIds: [...server.agentIds],
  };
}

/** The rows sent: blank rows are left out; a stored secret left empty is kept. */
function sentRows(d: McpDraft): { row: VarRow; sent: { name: string; secret: boolean; value?: string } }[] {
  return d.vars
    .filter((r) => r.name.trim() !== '' || r.value !== '')
    .map((row) => ({ row, sent: row.secret && row.value === '' ? { name: row.name.trim(), secret: true } : { name: row.name.trim(), secret: row.secret, value: row.value } }));
}

export function requestOf(d: McpDraft): SaveMcpServerInput {
  const base = { ...(d.id ? { id: d.id } : {}), name: d.name, agentIds: d.agentIds };
  const vars = sentRows(d).map((r) => r.sent);
  if (d.type === 'stdio') return { type: 'stdio', ...base, command: d.command, args: d.args.split('\n').filter((a) => a !== ''), env: vars };
  return { type: d.type, ...base, url: d.url, headers: vars };
}

/** Where a problem shows: `name`, `command`, `url`, `agentIds`, or `var-<row key>-name` / `-value`. */
export type FieldKey = string;

const WORDS: Record<string, string> = {
  'name is empty': 'Give the server a name.',
  'command is empty': 'Give the command that starts the server.',
  'an http:// or https:// address': 'An http:// or https:// address.',
  'needs a value': 'Needs a value.',
};

/** Each field's problem, as the host would refuse it, plus a new secret without a value. */
export function fieldErrors(d: McpDraft): Record<FieldKey, string> {
  const errors: Record<FieldKey, string> = {};
  const rows = sentRows(d);
  rows.forEach(({ row }) => {
    if (row.name.trim() === '') errors[`var-${row.key}-name`] = d.type === 'stdio' ? 'Name the variable.' : 'Name the header.';
    else if (row.secret && row.value === '' && !row.stored) errors[`var-${row.key}-value`] = 'A new secret needs a value.';
  });
  const parsed = SaveMcpServer.safeParse(requestOf(d));
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const [head, index, part] = issue.path;
    let key: FieldKey;
    if ((head === 'env' || head === 'headers') && typeof index === 'number') {
      const row = rows[index]?.row;
      if (!row) continue;
      key = `var-${row.key}-${part === 'value' ? 'value' : 'name'}`;
    } else if (head === 'name' || head === 'command' || head === 'url' || head === 'agentIds') key = head;
    else key = 'form';
    errors[key] ??= WORDS[issue.message] ?? sentence(issue.message);
  }
  return errors;
}

const sentence = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) + (s.endsWith('.') ? '' : '.') : s);
