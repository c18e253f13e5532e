import type { TerminalOutputT, TerminalSnapshotT } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';
import { MAX_TERMINAL_CHARS, terminalKey, type LiveTerminal } from './initial-state';

export interface TerminalsActions {
  /** A live piece of a terminal's output (`terminal:output`). */
  receiveTerminalOutput(update: TerminalOutputT): void;
  /** Reads a running terminal's output so far (a window opened mid-run); gone terminals are left to the transcript. */
  loadTerminal(sessionId: string, terminalId: string): Promise<void>;
}

function capped(t: LiveTerminal): LiveTerminal {
  return t.text.length > MAX_TERMINAL_CHARS ? { ...t, text: t.text.slice(t.text.length - MAX_TERMINAL_CHARS), truncated: true } : t;
}

/**
 * `piece` (text starting at `start`) merged into what is known: the part already held is
 * skipped, a gap (pieces missed before a snapshot arrived) is marked truncated.
 */
export function mergePiece(known: LiveTerminal | undefined, start: number, text: string): LiveTerminal {
  const base = known ?? { text: '', end: 0, truncated: start > 0, exit: undefined };
  const end = start + text.length;
  if (end <= base.end) return base;
  if (start > base.end) return capped({ ...base, text: base.text + text, end, truncated: true });
  return capped({ ...base, text: base.text + text.slice(base.end - start), end });
}

export function createTerminalsActions(set: SetState, get: GetState, deps: StoreDeps): TerminalsActions {
  const put = (key: string, t: LiveTerminal): void => {
    const next = new Map(get().terminals);
    next.set(key, t);
    set({ terminals: next });
  };
  const fromSnapshot = (key: string, s: TerminalSnapshotT): void => {
    const known = get().terminals.get(key);
    // Pieces that arrived while the snapshot was on its way are kept on top of it.
    const snap: LiveTerminal = { text: s.text, end: s.end, truncated: s.truncated, exit: s.exit ?? known?.exit };
    put(key, known && known.end > s.end ? mergePiece(snap, known.end - known.text.length, known.text) : capped(snap));
  };
  return {
    receiveTerminalOutput(update) {
      const key = terminalKey(update.sessionId, update.terminalId);
      const merged = mergePiece(get().terminals.get(key), update.start, update.text);
      put(key, update.exit ? { ...merged, exit: update.exit } : merged);
    },
    async loadTerminal(sessionId, terminalId) {
      const res = await deps.api['terminals:read']({ sessionId, terminalId });
      if (res.ok) fromSnapshot(terminalKey(sessionId, terminalId), res.value);
    },
  };
}
