/**
 * A transcript as Markdown for a person to read (`Export…` → Markdown): the conversation, each
 * tool call once with its title and final status, diffs and terminals summarised, permission
 * requests and questions with how they were answered (secret answers stay masked: the
 * transcript never held them). Everything is derived from the stored events; nothing is
 * rendered that a reader could mistake for Markdown the agent did not write: titles, paths and
 * values are set as code or escaped.
 */
import type { ElicitationContentT, ElicitationQuestionT } from '../../shared/elicitation';
import type { DiffContent, EventOf, PermissionDeciderT, SessionEventT, ToolCallContent } from '../../shared/contract';

export interface MarkdownHeader {
  title: string;
  agentName: string;
  cwd: string;
  createdAt: number;
  exportedAt: number;
  forkedFrom?: string;
  readOnly?: boolean;
}

type ToolState = { title: string; kind?: string; status: string; content: ToolCallContent[] };

const iso = (ms: number): string => new Date(ms).toISOString();
/** Inline code that survives any backticks inside. */
const code = (text: string): string => {
  const ticks = '`'.repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  return `${ticks}${ticks.length > 1 ? ' ' : ''}${text.replace(/\n/g, ' ')}${ticks.length > 1 ? ' ' : ''}${ticks}`;
};
const quote = (text: string): string => text.split('\n').map((l) => `> ${l}`).join('\n');

/** Lines added and removed, counted as a multiset: a summary, not a diff. */
export function lineChanges(oldText: string | null | undefined, newText: string): { added: number; removed: number } {
  const before = new Map<string, number>();
  for (const line of (oldText ?? '').split('\n')) if (oldText) before.set(line, (before.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of newText.split('\n')) {
    const n = before.get(line) ?? 0;
    if (n > 0) before.set(line, n - 1);
    else added++;
  }
  let removed = 0;
  for (const n of before.values()) removed += n;
  return { added, removed };
}

function diffLine(d: DiffContent): string {
  const { added, removed } = lineChanges(d.oldText, d.newText);
  return `${d.oldText ? 'Edited' : 'Created'} ${code(d.path)} (+${added} −${removed} lines)`;
}

function decidedBy(d: PermissionDeciderT, reason: string | undefined): string {
  switch (d.kind) {
    case 'window':
      return `by ${d.label ?? 'a window'}`;
    case 'timeout':
      return reason ?? 'automatically at the deadline';
    case 'rule':
      return reason ?? 'by a remembered rule';
    case 'cancel':
      return `cancelled (${reason ?? d.reason})`;
  }
}

function answerLines(question: ElicitationQuestionT, content: ElicitationContentT | undefined): string[] {
  if (!content || question.mode !== 'form') return [];
  return question.form.fields.flatMap((f) => (Object.hasOwn(content, f.name) ? [`  - ${f.label}: ${code(JSON.stringify(content[f.name]))}`] : []));
}

/** Final state of every tool call, and the first and last answer of every request, by id. */
function index(events: readonly SessionEventT[]) {
  const tools = new Map<string, ToolState>();
  const permissions = new Map<string, EventOf<'permission_resolved'>['payload']>();
  const answers = new Map<string, EventOf<'question_answered'>['payload']>();
  const completed = new Set<string>();
  for (const e of events) {
    if (e.kind === 'tool_call' || e.kind === 'tool_call_update') {
      const prev = tools.get(e.payload.toolCallId);
      tools.set(e.payload.toolCallId, {
        title: e.payload.title ?? prev?.title ?? 'Tool call',
        ...(e.payload.kind ?? prev?.kind ? { kind: e.payload.kind ?? prev?.kind } : {}),
        status: e.payload.status ?? prev?.status ?? 'pending',
        content: e.payload.content ?? prev?.content ?? [],
      });
    } else if (e.kind === 'permission_resolved') permissions.set(e.payload.requestId, e.payload);
    else if (e.kind === 'question_answered') answers.set(e.payload.requestId, e.payload);
    else if (e.kind === 'question_completed') completed.add(e.payload.requestId);
  }
  return { tools, permissions, answers, completed };
}

/** The transcript as Markdown; `events` oldest first. */
export function transcriptMarkdown(header: MarkdownHeader, events: readonly SessionEventT[]): string {
  const out: string[] = [`# ${header.title}`, '', `- Agent: ${header.agentName}`, `- Folder: ${code(header.cwd)}`, `- Started: ${iso(header.createdAt)}`, `- Exported: ${iso(header.exportedAt)}`];
  if (header.forkedFrom) out.push(`- Forked from session ${code(header.forkedFrom)}`);
  if (header.readOnly) out.push('- Imported: a read-only copy');
  out.push('');
  const { tools, permissions, answers, completed } = index(events);
  const shownTools = new Set<string>();
  /** The message being written: one streamed in many events reads as one. */
  let open: { who: 'you' | 'agent' | 'thought'; heading: string | undefined; text: string } | undefined;
  const flush = (): void => {
    if (!open) return;
    out.push('');
    if (open.heading) out.push(open.heading, '');
    out.push(open.who === 'thought' ? quote(open.text) : open.text);
    open = undefined;
  };
  const block = (who: 'you' | 'agent' | 'thought', heading: string | undefined, text: string): void => {
    if (open?.who === who && who !== 'you') open.text += text;
    else {
      flush();
      open = { who, heading, text };
    }
  };
  const item = (line: string): void => {
    if (open) {
      flush();
      out.push('');
    }
    out.push(line);
  };

  for (const e of events) {
    switch (e.kind) {
      case 'user_message': {
        const names = e.payload.attachments?.map((a) => a.name ?? a.type) ?? [];
        block('you', `## You · ${iso(e.at)}`, e.payload.text + (names.length ? `\n\n*Attached: ${names.join(', ')}*` : ''));
        break;
      }
      case 'agent_message':
        block('agent', '## Agent', e.payload.text);
        break;
      case 'agent_thought':
        block('thought', undefined, e.payload.text);
        break;
      case 'tool_call':
      case 'tool_call_update': {
        const id = e.payload.toolCallId;
        const tool = tools.get(id);
        if (shownTools.has(id) || !tool) break;
        shownTools.add(id);
        item(`- **Tool call** ${code(tool.title)}${tool.kind ? ` (${tool.kind})` : ''}: ${tool.status.replace('_', ' ')}`);
        for (const c of tool.content) if (c.type === 'diff') out.push(`  - ${diffLine(c)}`);
        break;
      }
      case 'terminal_output':
        item(`- **Terminal** ${code(e.payload.command)}: ${e.payload.exit.signal ? `killed by ${e.payload.exit.signal}` : `exit ${e.payload.exit.exitCode ?? '?'}`}, ${e.payload.output.split('\n').filter(Boolean).length} lines of output${e.payload.truncated ? ' (truncated)' : ''}`);
        break;
      case 'file_written':
        item(`- **File written** ${e.payload.diff ? diffLine(e.payload.diff) : `${code(e.payload.path)} (${e.payload.bytes} bytes)`}`);
        break;
      case 'permission_requested': {
        const answer = permissions.get(e.payload.requestId);
        const outcome = answer ? (answer.outcome === 'selected' ? `${answer.optionName ?? answer.optionId ?? 'an option'}, ${decidedBy(answer.decider, answer.reason)}` : decidedBy(answer.decider, answer.reason)) : 'not answered';
        item(`- **Permission** for ${code(e.payload.toolCall.title)}: ${outcome}`);
        break;
      }
      case 'question_asked': {
        const { question, requestId } = e.payload;
        const answer = answers.get(requestId);
        const how = answer ? `${answer.action === 'accept' ? 'answered' : answer.action === 'decline' ? 'declined' : 'cancelled'} ${answer.action === 'cancel' && answer.decider.kind === 'cancel' ? `(${answer.reason ?? answer.decider.reason})` : decidedBy(answer.decider, answer.reason)}` : 'not answered';
        const what = question.mode === 'url' ? `to open a page on ${code(question.target.displayHost)}` : question.form.title ? code(question.form.title) : 'a form';
        item(`- **Question** ${what}: ${quoteInline(question.message)} — ${how}${question.mode === 'url' && completed.has(requestId) ? '; the agent said it is done' : ''}`);
        out.push(...answerLines(question, answer?.content));
        break;
      }
      case 'plan':
        item(`- **Plan**: ${e.payload.entries.map((p) => `${p.status === 'completed' ? '☑' : '☐'} ${p.content}`).join('; ')}`);
        break;
      case 'error':
        item(`- **Error** (${e.payload.code}): ${e.payload.message}`);
        break;
      case 'notice':
      case 'files_restored':
        item(`- *${e.payload.text}*`);
        break;
      case 'setup_command': {
        const p = e.payload;
        const how = p.exit.signal ? `killed by ${p.exit.signal}` : `exit ${p.exit.exitCode ?? '?'}`;
        item(`- **Setup command** ${code(p.command)}: ${p.failed ? 'failed, ' : ''}${how}, ${p.output.split('\n').filter(Boolean).length} lines of output${p.truncated ? ' (truncated)' : ''}${p.message ? `; ${p.message}` : ''}`);
        break;
      }
      case 'turn_ended':
        if (e.payload.stopReason !== 'end_turn') item(`- *Turn ended: ${e.payload.stopReason}${e.payload.reason ? ` (${e.payload.reason})` : ''}*`);
        break;
      case 'unreadable':
        item(`- *An event this version cannot read (${e.payload.storedKind})*`);
        break;
      // A checkpoint is a way back in the app; nothing to read in an export.
      case 'checkpoint':
      case 'turn_started':
      case 'permission_resolved':
      case 'question_answered':
      case 'question_completed':
      case 'session_info':
      case 'available_commands':
      case 'agent_update':
      case 'auth_required':
        break;
    }
  }
  flush();
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
}

function quoteInline(text: string): string {
  return `“${text.replace(/\s+/g, ' ').trim()}”`;
}
