import { randomUUID } from 'node:crypto';
import type { ExportFormatT, SessionViewT } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, SessionArchive, type SessionArchiveT } from '../../shared/session-archive';
import { additionalDirsOf, displayTitle } from '../store/sessions.repo';
import type { SessionContext } from './session-context';
import { copyEvents } from './session-fork';
import { transcriptMarkdown } from './transcript-markdown';

export interface ExportedFile {
  fileName: string;
  mimeType: string;
  text: string;
}

/** A file name from a title: letters, digits and dashes, never empty, never a path. */
function fileNameOf(title: string, at: number, extension: string): string {
  const stem = title.normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'session';
  return `${stem}-${new Date(at).toISOString().slice(0, 10)}.${extension}`;
}

/**
 * `Export…`: the session's transcript as Markdown (to read) or JSON (every stored event,
 * re-importable), with a file name from its title. Queued events are written first, so the
 * export holds everything that happened before it was asked for.
 */
export function exportSession(ctx: SessionContext, sessionId: string, format: ExportFormatT): ExportedFile {
  const { o } = ctx;
  const row = ctx.row(sessionId);
  o.log.flush();
  const events = [...o.log.events.all(sessionId)];
  const now = o.clock.now();
  const title = displayTitle(row);
  const agentName = o.agent(row.agent_id)?.name ?? row.agent_id;
  if (format === 'markdown') {
    const text = transcriptMarkdown(
      {
        title,
        agentName,
        cwd: row.cwd,
        createdAt: row.created_at,
        exportedAt: now,
        ...(row.forked_from ? { forkedFrom: row.forked_from } : {}),
        ...(row.read_only === 1 ? { readOnly: true } : {}),
      },
      events,
    );
    return { fileName: fileNameOf(title, now, 'md'), mimeType: 'text/markdown', text };
  }
  const archive: SessionArchiveT = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    exportedAt: new Date(now).toISOString(),
    session: {
      id: row.id,
      title,
      agentId: row.agent_id,
      agentName,
      cwd: row.cwd,
      additionalDirs: additionalDirsOf(row),
      createdAt: row.created_at,
      ...(row.forked_from ? { forkedFrom: row.forked_from } : {}),
    },
    events,
  };
  return { fileName: fileNameOf(title, now, 'json'), mimeType: 'application/json', text: `${JSON.stringify(archive, null, 1)}\n` };
}

/** The first few problems of a refused file, as a person reads them. */
function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const shown = issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || 'the file'}: ${i.message}`);
  return shown.join('; ') + (issues.length > 3 ? `; and ${issues.length - 3} more` : '');
}

/**
 * `Import session…`: a JSON export read back as a new session, archived and read-only (no agent
 * session: it is never resumed, prompts are refused). The whole file is checked against the
 * contract's event schemas before anything is stored: a bad file changes nothing.
 */
export function importSession(ctx: SessionContext, text: string, fileName: string | undefined, view: (id: string) => SessionViewT): SessionViewT {
  const { o } = ctx;
  ctx.assertOpen();
  const name = fileName ? `“${fileName}”` : 'The file';
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new AppError('invalid_request', `${name} is not JSON (${(err as Error).message}); export a session as JSON to import it.`);
  }
  const parsed = SessionArchive.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'number' ? p : String(p))), message: i.message }));
    throw new AppError('invalid_request', `${name} is not a Switchboard session export: ${describeIssues(issues)}`, { issues: issues.slice(0, 20) });
  }
  const { session, events, exportedAt } = parsed.data;
  const id = randomUUID();
  const now = o.clock.now();
  o.store.sessions.insert(
    { id, agent_id: session.agentId, cwd: session.cwd, state: 'ENDED', stateReason: 'imported', readOnly: true, archivedAt: now, title: session.title },
    now,
  );
  copyEvents(o.log, id, events);
  o.log.append(id, 'notice', {
    kind: 'imported',
    text: `Imported from ${fileName ? `“${fileName}”` : 'a file'} (exported ${exportedAt}${session.agentName ? ` from a session with ${session.agentName}` : ''}): a read-only copy with no agent session.`,
  });
  o.log.flush();
  return view(id);
}
