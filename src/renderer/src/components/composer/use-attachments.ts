import { useState } from 'react';
import { blockForFile, PROMPT_LIMITS, recordOf, type AttachmentRecord, type PromptBlock, type PromptCapabilities } from '../../../../shared/contract';
import { readFile } from '../../lib/read-file';

interface Attachment {
  id: number;
  block: PromptBlock;
  record: AttachmentRecord;
}

/**
 * A session's attachments survive switching sessions, like its draft text, and are kept apart
 * from it: sending or an error changes one without touching the other.
 */
const bySession = new Map<string, readonly Attachment[]>();
let nextId = 1;

export interface Attachments {
  items: readonly Attachment[];
  /** Why the last files could not be attached (the composer shows it; the text is untouched). */
  error: string | undefined;
  add(files: readonly File[]): Promise<void>;
  remove(id: number): void;
  /** Puts blocks back (a send that failed). */
  restore(blocks: readonly PromptBlock[]): void;
  clear(): void;
  dismissError(): void;
}

/**
 * The composer's attachments for `sessionId`: each file is read and turned into the content
 * block the agent's `promptCapabilities` allow (unknown until the agent has started: the host
 * checks again), or refused with the reason.
 */
export function useAttachments(sessionId: string, caps: PromptCapabilities | undefined, agentName: string): Attachments {
  const [items, setItemsState] = useState<readonly Attachment[]>(() => bySession.get(sessionId) ?? []);
  const [error, setError] = useState<string | undefined>();

  const setItems = (update: (prev: readonly Attachment[]) => readonly Attachment[]): void => {
    setItemsState((prev) => {
      const next = update(prev);
      if (next.length === 0) bySession.delete(sessionId);
      else bySession.set(sessionId, next);
      return next;
    });
  };
  const wrap = (block: PromptBlock): Attachment => ({ id: nextId++, block, record: recordOf(block) });

  return {
    items,
    error,
    async add(files) {
      const errors: string[] = [];
      const added: Attachment[] = [];
      for (const file of files) {
        if (items.length + added.length >= PROMPT_LIMITS.blocks) {
          errors.push(`At most ${PROMPT_LIMITS.blocks} attachments per message.`);
          break;
        }
        const loaded = await readFile(file);
        const built = 'error' in loaded ? loaded : blockForFile(loaded, caps, agentName);
        if ('error' in built) errors.push(built.error);
        else added.push(wrap(built.block));
      }
      if (added.length > 0) setItems((prev) => [...prev, ...added]);
      setError(errors.length > 0 ? errors.join(' ') : undefined);
    },
    remove(id) {
      setItems((prev) => prev.filter((a) => a.id !== id));
    },
    restore(blocks) {
      setItems((prev) => [...prev, ...blocks.filter((b) => b.type !== 'mention').map(wrap)]);
    },
    clear() {
      setItems(() => []);
      setError(undefined);
    },
    dismissError() {
      setError(undefined);
    },
  };
}
