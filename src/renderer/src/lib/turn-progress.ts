import type { SessionEventT, SessionViewT } from '../../../shared/contract';
import type { RowList } from '../store/slices/transcript/rows';

/** After this long without a word from the agent, the running turn says so. */
export const DEFAULT_SILENCE_AFTER_MS = 10_000;

interface TurnProgress {
  /** Since the turn began (host time), never negative. */
  elapsedMs: number;
  /** Set once the agent has said nothing for at least the silence threshold. */
  silentMs: number | undefined;
}

/** Kinds of stored event that are the agent speaking (a permission request included). */
const AGENT_KINDS: ReadonlySet<SessionEventT['kind']> = new Set([
  'agent_message',
  'agent_thought',
  'tool_call',
  'tool_call_update',
  'plan',
  'session_info',
  'available_commands',
  'agent_update',
  'permission_requested',
]);

/** How far back from the newest event to look for the agent's last one (the newest usually is). */
const SCAN_LIMIT = 64;

/**
 * When the newest agent event among the window's loaded events arrived (host time). The host
 * pushes no view per chunk, so this is how the window knows the agent is still talking.
 */
export function lastAgentEventAt(events: readonly SessionEventT[]): number | undefined {
  for (let i = events.length - 1, seen = 0; i >= 0 && seen < SCAN_LIMIT; i--, seen++) {
    const e = events[i]!;
    if (AGENT_KINDS.has(e.kind)) return e.at;
  }
  return undefined;
}

/**
 * The running turn's elapsed time and silence at `now`: silence counts from the latest of the
 * turn's start, the view's last agent activity and the last agent event the window received.
 * Undefined when the view says nothing runs or gives no start (a prompt still being accepted).
 */
export function turnProgress(
  view: Pick<SessionViewT, 'running' | 'turnStartedAt' | 'lastAgentActivityAt'> | undefined,
  lastEventAt: number | undefined,
  now: number,
  silenceAfterMs = DEFAULT_SILENCE_AFTER_MS,
): TurnProgress | undefined {
  if (!view?.running || view.turnStartedAt === undefined) return undefined;
  const start = view.turnStartedAt;
  const lastWord = Math.max(start, view.lastAgentActivityAt ?? start, lastEventAt ?? start);
  const silent = Math.max(0, now - lastWord);
  return { elapsedMs: Math.max(0, now - start), silentMs: silent >= silenceAfterMs ? silent : undefined };
}

/** `12 s`, `1 min 05 s`, `1 h 02 min`: whole seconds, as a running clock reads. */
export function formatDuration(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** Rows looked back through for the running tool call (a turn rarely has more after its last tool). */
const TOOL_SCAN_LIMIT = 64;

/**
 * The title of the turn's latest tool call still under way (pending or in progress), or
 * undefined: looked for back from the newest row, no further than the turn's prompt.
 */
export function currentToolTitle(rows: RowList): string | undefined {
  for (let i = rows.count - 1, seen = 0; i >= 0 && seen < TOOL_SCAN_LIMIT; i--, seen++) {
    const row = rows.at(i);
    if (!row || row.type === 'user') return undefined;
    if (row.type === 'tool' && (row.call.status === 'in_progress' || row.call.status === 'pending')) return row.call.title;
  }
  return undefined;
}
