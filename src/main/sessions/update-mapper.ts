import type * as acp from '@agentclientprotocol/sdk';
import { eventPayloads, type EventBody, type EventKind } from '../../shared/contract';
import { defined } from '../util/defined';
import { unmodelled } from '../util/unmodelled';

/** The stored event an update becomes: a kind and its typed payload. */
export type MappedEvent = EventBody;

function contentText(block: acp.ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[${block.name}](${block.uri})`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
    case 'image':
      return '[image]';
    case 'audio':
      return '[audio]';
    default:
      return '';
  }
}

export { defined } from '../util/defined';

/**
 * Turns one ACP `session/update` into the stored event it becomes, or undefined for updates
 * that are not part of the transcript (the agent echoing the user's own prompt). Fields we do
 * not model go to the payload's `extra`; an update whose fields break their ACP types, or a
 * variant we do not know, is kept whole as `agent_update`.
 */
export function mapUpdate(update: acp.SessionUpdate): MappedEvent | undefined {
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
      return chunk('agent_message', update);
    case 'agent_thought_chunk':
      return chunk('agent_thought', update);
    case 'user_message_chunk':
      // We store the prompts we send ourselves; agents that echo them would double them.
      return undefined;
    case 'tool_call':
      return typed('tool_call', update, {
        toolCallId: update.toolCallId,
        title: update.title,
        kind: update.kind,
        status: update.status ?? 'pending',
        content: update.content,
        locations: update.locations,
        rawInput: update.rawInput,
        rawOutput: update.rawOutput,
      });
    case 'tool_call_update':
      return typed('tool_call_update', update, {
        toolCallId: update.toolCallId,
        title: update.title,
        kind: update.kind,
        status: update.status,
        content: update.content,
        locations: update.locations,
        rawInput: update.rawInput,
        rawOutput: update.rawOutput,
      });
    case 'plan':
      return typed('plan', update, { entries: update.entries });
    case 'available_commands_update':
      return typed('available_commands', update, { commands: update.availableCommands }, { availableCommands: 'commands' });
    case 'session_info_update':
      return typed('session_info', update, { title: update.title, updatedAt: update.updatedAt });
    default:
      return asAgentUpdate(update);
  }
}

type Chunk = Extract<acp.SessionUpdate, { sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' }>;

/** The hot path: a plain text chunk is its text; anything richer keeps the block in `extra`. */
function chunk(kind: 'agent_message' | 'agent_thought', update: Chunk): MappedEvent {
  const text = contentText(update.content);
  const { sessionUpdate: _variant, ...fields } = update;
  const c = update.content;
  const messageId = update.messageId ?? undefined;
  const modelled = messageId === undefined ? { text } : { text, messageId };
  const plain = c.type === 'text' && Object.keys(c).length === 2 && Object.keys(fields).length === (messageId === undefined ? 1 : 2);
  const extra = plain ? undefined : unmodelled(fields, { content: { type: 'text', text }, messageId });
  return { kind, payload: extra ? { ...modelled, extra } : modelled };
}

/**
 * The payload `kind`'s schema makes of `candidate` (absent fields dropped), with what the
 * update carried beyond it in `extra`; `renamed` maps update fields to payload fields.
 */
function typed<K extends EventKind>(
  kind: K,
  update: acp.SessionUpdate,
  candidate: Record<string, unknown>,
  renamed?: Record<string, string>,
): MappedEvent {
  const parsed = eventPayloads[kind].safeParse(defined(candidate));
  if (!parsed.success) return asAgentUpdate(update);
  const { sessionUpdate: _variant, ...fields } = update;
  const extra = unmodelled(fields, parsed.data, renamed);
  // The schema of `kind` produced this payload, so kind and payload correspond.
  return { kind, payload: extra ? { ...parsed.data, extra } : parsed.data } as MappedEvent;
}

function asAgentUpdate(update: acp.SessionUpdate): MappedEvent {
  const { sessionUpdate, ...fields } = update;
  return { kind: 'agent_update', payload: { sessionUpdate, extra: unmodelled(fields, {}) ?? {} } };
}

/** Updates that still matter while an agent replays history on `session/load`. */
export function isStateUpdate(update: acp.SessionUpdate): boolean {
  return (
    update.sessionUpdate === 'available_commands_update' ||
    update.sessionUpdate === 'session_info_update' ||
    update.sessionUpdate === 'current_mode_update' ||
    update.sessionUpdate === 'config_option_update'
  );
}
