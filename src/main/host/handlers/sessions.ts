import { MAX_EXPORT_CHARS } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { Handlers } from '../dispatch';
import type { HostParts } from '../host-parts';

const ok = { ok: true as const };

/** Sessions: made, switched to, watched, closed, kept, named; prompts and their drafts. */
export function sessionHandlers({ service, saveFile }: HostParts) {
  return {
    'sessions:list': (p) => service.list(p.limit, p.after),
    'sessions:create': (p) => service.newSession(p),
    'sessions:switch': (p, ctx) => service.switchTo(ctx.clientId, p.sessionId, p.fromSessionId),
    'sessions:detach': (p, ctx) => (service.unwatch(ctx.clientId, p.sessionId), ok),
    'sessions:close': (p) => service.closeByPerson(p.sessionId),
    'sessions:retry': (p) => service.retry(p.sessionId),
    'sessions:archive': (p) => service.archive(p.sessionId, p.keepWorktree ?? false),
    'sessions:restore': (p) => service.restore(p.sessionId),
    'sessions:delete': async (p) => (await service.delete(p.sessionId, { deleteBranch: p.deleteBranch ?? false, confirmUnmerged: p.confirmUnmerged ?? false }), ok),
    'sessions:rename': (p) => service.rename(p.sessionId, p.title),
    'sessions:configure': (p) => service.configure(p.sessionId, p.target, p.value),
    'transcript:page': (p) => service.transcriptBefore(p.sessionId, p.beforeSeq, p.limit),
    'transcript:since': (p) => service.transcriptAfter(p.sessionId, p.afterSeq, p.limit),
    'prompt:send': (p) => ({ accepted: true as const, ...service.send(p.sessionId, p.clientMessageId, p.text, p.retry ?? false, p.content) }),
    'prompt:cancel': (p) => (service.cancel(p.sessionId), ok),
    'drafts:get': (p) => ({ text: service.draft(p.sessionId) }),
    'drafts:save': (p) => (service.saveDraft(p.sessionId, p.text), ok),
    'terminals:read': (p) => service.terminalSnapshot(p.sessionId, p.terminalId),
    'files:search': (p) => service.searchFiles(p.sessionId, p.query, p.limit),
    'sessions:fork': (p) => service.fork(p.sessionId, { ...(p.id ? { id: p.id } : {}), ...(p.beforeSeq ? { beforeSeq: p.beforeSeq } : {}) }),
    'sessions:export': async (p) => {
      const file = service.exportSession(p.sessionId, p.format);
      // The desktop app asks where to save; a browser downloads what it is handed.
      if (saveFile) {
        const path = await saveFile(file.fileName, file.text);
        return path === undefined ? { kind: 'cancelled' as const } : { kind: 'saved' as const, path };
      }
      if (file.text.length > MAX_EXPORT_CHARS) throw new AppError('invalid_request', 'This transcript is too large to download through the browser; export it from the desktop app');
      return { kind: 'download' as const, ...file };
    },
    'sessions:import': (p) => service.importSession(p.text, p.fileName),
  } satisfies Partial<Handlers>;
}
