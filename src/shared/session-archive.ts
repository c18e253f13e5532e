/**
 * A session exported as JSON (`Export…` → JSON): every stored event as the contract types it,
 * with what the session was (title, agent, folder). `Import session…` reads such a file back
 * as a new read-only session; a file that does not match this schema is refused whole.
 */
import { z } from 'zod';
import { SessionEvent } from './events';

export const ARCHIVE_FORMAT = 'switchboard-session';
export const ARCHIVE_VERSION = 1;
/** More events than any real transcript holds: a file claiming more is refused before it is read further. */
export const ARCHIVE_MAX_EVENTS = 500_000;

export const ArchivedSession = z.object({
  id: z.string(),
  title: z.string(),
  agentId: z.string(),
  agentName: z.string().optional(),
  cwd: z.string(),
  additionalDirs: z.array(z.string()),
  createdAt: z.number(),
  forkedFrom: z.string().optional(),
});

export const SessionArchive = z
  .object({
    format: z.literal(ARCHIVE_FORMAT),
    version: z.literal(ARCHIVE_VERSION),
    /** When it was exported (ISO 8601). */
    exportedAt: z.string(),
    session: ArchivedSession,
    /** Oldest first, by strictly growing seq. */
    events: z.array(SessionEvent).max(ARCHIVE_MAX_EVENTS),
  })
  .superRefine((archive, ctx) => {
    let seq = 0;
    archive.events.forEach((e, i) => {
      if (e.sessionId !== archive.session.id) ctx.addIssue({ code: 'custom', path: ['events', i, 'sessionId'], message: 'belongs to another session' });
      if (e.seq <= seq) ctx.addIssue({ code: 'custom', path: ['events', i, 'seq'], message: 'is out of order' });
      seq = e.seq;
    });
  });

export type SessionArchiveT = z.output<typeof SessionArchive>;
