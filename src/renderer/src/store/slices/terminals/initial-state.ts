import type { TerminalExit } from '../../../../../shared/contract';

/** What this window knows of a terminal an agent runs: its output so far (its tail) and its end. */
export interface LiveTerminal {
  text: string;
  /** Position after `text` in everything the terminal printed (pieces continue here). */
  end: number;
  /** Output was dropped before `text` (by the host's limit or this window's). */
  truncated: boolean;
  exit: TerminalExit | undefined;
}

export interface TerminalsState {
  /** By `terminalKey(sessionId, terminalId)`; replaced, never mutated. */
  terminals: ReadonlyMap<string, LiveTerminal>;
}

/** A window keeps at most this much of a live terminal's output (the host keeps the rest). */
export const MAX_TERMINAL_CHARS = 256 * 1024;

export const terminalKey = (sessionId: string, terminalId: string): string => `${sessionId}\u0000${terminalId}`;

export const terminalsInitialState: TerminalsState = { terminals: new Map() };
