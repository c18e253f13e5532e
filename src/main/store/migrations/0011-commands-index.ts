import type { Migration } from './index';

/**
 * Switching to a session answers with the agent's latest command list. Agents send it once,
 * early, so without an index that lookup walks a long transcript from its end row by row. A
 * partial index holds only those rows: nothing is added to the cost of storing any other event.
 */
export const m0011: Migration = {
  version: 11,
  name: 'index of command lists',
  up(db) {
    db.exec(`CREATE INDEX events_available_commands ON events(session_id, seq) WHERE kind = 'available_commands';`);
  },
};
