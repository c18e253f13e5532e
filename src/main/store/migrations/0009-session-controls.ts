import type { Migration } from './index';

/**
 * What the session header shows of a session's agent: its modes, models, config options and
 * usage (JSON of `SessionControls`), kept with the session so a reload or a restart shows the
 * last known ones before the agent runs again. One column, not transcript events: the header
 * reads it on every switch, and the newest controls event could lie anywhere in a long transcript.
 */
export const m0009: Migration = {
  version: 9,
  name: 'session controls',
  up(db) {
    db.exec(`ALTER TABLE sessions ADD COLUMN controls TEXT;`);
  },
};
