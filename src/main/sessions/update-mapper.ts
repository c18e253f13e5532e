import type * as acp from '@agentclientprotocol/sdk';
import type { EventKindT } from '../../shared/contract';

export interface MappedEvent {
  kind: EventKindT;
  payload: Record<string, unknown>;
}

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

/** The fields of `o` that carry a value (ACP sends absent fields as undefined or null). */
export function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}

/**
 * Turns one ACP `session/update` into the stored event it becomes, or undefined for updates
 * that are not part of the transcript (the agent echoing the user's own prompt).
 */
export function mapUpdate(update: acp.SessionUpdate): MappedEvent | undefined {
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
      return { kind: 'agent_message', payload: { text: contentText(update.content) } };
    case 'agent_thought_chunk':
      return { kind: 'agent_thought', payload: { text: contentText(update.content) } };
    case 'user_message_chunk':
      // We store the prompts we send ourselves; agents that echo them would double them.
      return undefined;
    case 'tool_call':
      return {
        kind: 'tool_call',
        payload: defined({
          toolCallId: update.toolCallId,
          title: update.title,
          kind: update.kind,
          status: update.status ?? 'pending',
          content: update.content,
          locations: update.locations,
          rawInput: update.rawInput,
        }),
      };
    case 'tool_call_update':
      return {
        kind: 'tool_call_update',
        payload: defined({
          toolCallId: update.toolCallId,
          title: update.title,
          kind: update.kind,
          status: update.status,
          content: update.content,
          locations: update.locations,
          rawInput: update.rawInput,
          rawOutput: update.rawOutput,
        }),
      };
    case 'plan':
      return { kind: 'plan', payload: { entries: update.entries } };
    case 'available_commands_update':
      return { kind: 'available_commands', payload: { commands: update.availableCommands } };
    case 'session_info_update':
      return { kind: 'session_info', payload: defined({ title: update.title, updatedAt: update.updatedAt }) };
    default:
      return { kind: 'agent_update', payload: { update: update as unknown } };
  }
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
