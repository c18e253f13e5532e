import { AppError } from '../../shared/errors';
import type { SessionStateT, StateReason } from '../../shared/contract';
import type { SessionsRepo } from '../store/sessions.repo';

/** Every allowed state change. Anything else throws and stores nothing. */
export const transitions: Readonly<Record<SessionStateT, readonly SessionStateT[]>> = {
  CREATED: ['STARTING', 'CLOSING', 'ENDED'],
  STARTING: ['ACTIVE', 'DETACHED', 'CLOSING', 'ENDED'],
  ACTIVE: ['DETACHED', 'CLOSING', 'ENDED'],
  DETACHED: ['ACTIVE', 'CLOSING', 'ENDED'],
  CLOSING: ['ENDED'],
  ENDED: ['STARTING'],
};

/** States in which a live agent session may take prompts. */
export const ROUTABLE: readonly SessionStateT[] = ['STARTING', 'ACTIVE', 'DETACHED'];
/** States that can't survive a host restart: the agent session behind them is gone. */
export const LIVE_STATES: readonly SessionStateT[] = ['CREATED', 'STARTING', 'ACTIVE', 'DETACHED', 'CLOSING'];

export function canTransition(from: SessionStateT, to: SessionStateT): boolean {
  return transitions[from].includes(to);
}

/**
 * Moves a stored session from its current state to `to`. The write is compare-and-set on the
 * state it read, so a concurrent change makes this throw instead of overwriting it.
 */
export function transition(
  repo: SessionsRepo,
  id: string,
  to: SessionStateT,
  reason: StateReason | undefined,
  now: number,
): { from: SessionStateT; to: SessionStateT } {
  const row = repo.get(id);
  if (!row) throw new AppError('not_found', `No session ${id}`);
  if (!canTransition(row.state, to)) {
    throw new AppError('invalid_state', `Session cannot go from ${row.state} to ${to}`, { from: row.state, to });
  }
  if (!repo.setState(id, row.state, to, reason, now)) {
    throw new AppError('invalid_state', `Session ${id} changed state concurrently`, { from: row.state, to });
  }
  return { from: row.state, to };
}
