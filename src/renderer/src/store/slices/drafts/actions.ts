import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';

/**
 * Drafts: the composer's unsent text, per session, kept by the host (`drafts:save`) so it
 * survives a reload, a host restart and a crash. Saves are debounced; `flushDrafts` sends what
 * is still waiting (the page is going away).
 */
export interface DraftsActions {
  /** Asks the host for the session's draft unless this window already has one. */
  loadDraft(sessionId: string): Promise<void>;
  /** The person typed: kept at once here, saved to the host after a pause. */
  editDraft(sessionId: string, text: string): void;
  /** The text was sent: the draft is gone, on the host too, now. */
  clearDraft(sessionId: string): void;
  /** Saves every draft still waiting for its pause. */
  flushDrafts(): void;
}

/** How long typing pauses before the draft is saved. */
export const DRAFT_SAVE_DELAY_MS = 400;

export function createDraftsActions(set: SetState, get: GetState, deps: StoreDeps): DraftsActions {
  const { api } = deps;
  const delay = deps.draftSaveDelayMs ?? DRAFT_SAVE_DELAY_MS;
  const waiting = new Map<string, ReturnType<typeof setTimeout>>();

  const put = (sessionId: string, text: string): void => {
    set({ drafts: new Map(get().drafts).set(sessionId, text) });
  };

  const save = (sessionId: string): void => {
    const timer = waiting.get(sessionId);
    if (timer !== undefined) clearTimeout(timer);
    waiting.delete(sessionId);
    // No session yet (the composer shown before the first one): nothing to save to.
    if (sessionId === '') return;
    // The host has no such session until its create is answered: try again after a pause.
    if (get().creatingSessionId === sessionId) {
      waiting.set(sessionId, setTimeout(() => save(sessionId), delay));
      return;
    }
    const text = get().drafts.get(sessionId) ?? '';
    // A draft is a convenience: a failed save must never get in the person's way.
    void api['drafts:save']({ sessionId, text });
  };

  return {
    async loadDraft(sessionId) {
      if (sessionId === '' || get().drafts.has(sessionId) || get().creatingSessionId === sessionId) return;
      const res = await api['drafts:get']({ sessionId });
      // Typing while the answer was on its way wins.
      if (res.ok && !get().drafts.has(sessionId)) put(sessionId, res.value.text);
    },

    editDraft(sessionId, text) {
      put(sessionId, text);
      const timer = waiting.get(sessionId);
      if (timer !== undefined) clearTimeout(timer);
      waiting.set(
        sessionId,
        setTimeout(() => save(sessionId), delay),
      );
    },

    clearDraft(sessionId) {
      put(sessionId, '');
      save(sessionId);
    },

    flushDrafts() {
      for (const sessionId of [...waiting.keys()]) save(sessionId);
    },
  };
}
