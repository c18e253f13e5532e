import { randomUUID } from 'node:crypto';
import { AppError } from '../../../shared/errors';
import { VERSION } from '../../../shared/version';
import { createAgentHandlers } from './agents';
import { listAgentSessions } from '../../catalogue/agent-session-list';
import { checkFolder, pickFolder, requireAdditionalDirs, requireFolder } from '../../workspace/folders';
import type { Handlers } from '../dispatch';
import type { HostParts } from '../host-parts';

/** One handler per contract command. The dispatcher has validated `params` already. */
export function createHandlers(h: HostParts): Handlers {
  const { service, store, gate, eventLog } = h;
  return {
    'host:info': (_p, ctx) => {
      const searchIndexing = h.searchProgress();
      return {
      version: VERSION,
      headless: h.headless,
      canOpenTerminal: h.terminal !== undefined,
      canPickFolder: h.folderPicker !== undefined,
      clientId: ctx.clientId,
      agents: h.agents().map((a) => ({ id: a.id, name: a.name, command: a.command, args: a.args })),
      settings: h.settings(),
      ...(h.debugInfo ? { debug: h.debugInfo() } : {}),
      ...(searchIndexing ? { searchIndexing } : {}),
      };
    },
    'sessions:list': () => store.sessions.list().map((row) => service.view(row)),
    'sessions:create': (p) => {
      const cwd = requireFolder(p.cwd ?? h.settings().defaultCwd);
      const additionalDirs = requireAdditionalDirs(p.additionalDirs ?? [], cwd);
      const agentId = p.agentId ?? h.settings().defaultAgentId;
      const view = service.create(p.id ?? randomUUID(), agentId, cwd, {
        additionalDirs,
        ...(p.acpSessionId === undefined ? {} : { acpSessionId: p.acpSessionId }),
        ...(p.title === undefined ? {} : { title: p.title }),
      });
      // The next New session starts from these choices: the agent preselected, the folder first.
      store.folders.use(cwd, h.clock.now());
      if (agentId !== h.settings().defaultAgentId) h.updateSettings({ defaultAgentId: agentId });
      return view;
    },
    'sessions:switch': (p, ctx) => service.switchTo(ctx.clientId, p.sessionId, p.fromSessionId),
    'sessions:detach': (p, ctx) => {
      service.unwatch(ctx.clientId, p.sessionId);
      return { ok: true as const };
    },
    'sessions:close': async (p) => {
      await service.close(p.sessionId, 'closed_by_user');
      return service.view(service.row(p.sessionId));
    },
    'transcript:page': (p) => {
      service.row(p.sessionId);
      return eventLog.events.pageBefore(p.sessionId, p.beforeSeq ?? Number.MAX_SAFE_INTEGER, p.limit);
    },
    'transcript:since': (p) => {
      service.row(p.sessionId);
      return eventLog.events.pageAfter(p.sessionId, p.afterSeq, p.limit);
    },
    'prompt:send': (p) => ({ accepted: true as const, ...service.send(p.sessionId, p.clientMessageId, p.text, p.retry ?? false, p.content) }),
    'prompt:cancel': (p) => {
      service.cancel(p.sessionId);
      return { ok: true as const };
    },
    'permissions:answer': (p, ctx) => {
      gate.answer(ctx.clientId, p.requestId, p.sessionId, p.optionId);
      return { ok: true as const };
    },
    'permissions:rules': (p) => {
      service.row(p.sessionId);
      return store.permissions.rules(p.sessionId);
    },
    'permissions:revoke': (p) => {
      if (!store.permissions.deleteRule(p.sessionId, p.ruleId)) throw new AppError('not_found', 'No such rule for this session');
      return { ok: true as const };
    },
    'settings:update': (p) => {
      // Refuse what would break the next New session, before anything is stored.
      if (p.defaultCwd !== undefined) requireFolder(p.defaultCwd, 'The default folder');
      if (p.defaultAgentId !== undefined && !h.agents().some((a) => a.id === p.defaultAgentId)) {
        throw new AppError('invalid_request', `No agent named ${p.defaultAgentId}`);
      }
      return h.updateSettings(p);
    },
    ...createAgentHandlers(h),
    'agents:log': (p, ctx) => h.agentLogFollowers.open(ctx.clientId, p.sessionId, p.follow),
    'agents:unfollow': (p, ctx) => {
      h.agentLogFollowers.close(ctx.clientId, p.sessionId);
      return { ok: true as const };
    },
    'agents:authenticate': async (p) => ({ ok: true as const, ...(await service.authenticate(p.sessionId, p.methodId, p.value)) }),
    'sessions:retry': (p) => {
      service.retry(p.sessionId);
      return service.view(service.row(p.sessionId));
    },
    'sessions:archive': async (p) => {
      await service.archive(p.sessionId);
      return service.view(service.row(p.sessionId));
    },
    'sessions:restore': (p) => {
      service.restore(p.sessionId);
      return service.view(service.row(p.sessionId));
    },
    'sessions:delete': async (p) => {
      await service.delete(p.sessionId);
      return { ok: true as const };
    },
    'files:search': (p) => h.files.search(service.row(p.sessionId).cwd, p.query, p.limit),
    'sessions:configure': (p) => service.configure(p.sessionId, p.target, p.value),
    'agents:login': (p) => {
      const row = service.row(p.sessionId);
      const method = service.view(row).auth?.methods.find((m) => m.id === p.methodId);
      if (!method?.command) throw new AppError('not_found', 'This session offers no terminal sign-in with that id');
      if (!h.terminal) throw new AppError('invalid_request', `Switchboard cannot open a terminal here: run ${method.command} yourself, then press Retry`);
      h.terminal.open(method.command, row.cwd);
      return { ok: true as const };
    },
    'folders:check': (p) => checkFolder(p.path),
    'folders:recent': () => ({ folders: store.folders.recent() }),
    'folders:pick': () => pickFolder(h.folderPicker),
    'agents:sessions': async (p) => {
      const agent = h.catalogue.resolve(p.agentId);
      if (!agent) throw new AppError('not_found', `No agent named ${p.agentId}`);
      const query = { ...(p.cwd === undefined ? {} : { cwd: requireFolder(p.cwd) }), ...(p.cursor === undefined ? {} : { cursor: p.cursor }) };
      const page = await listAgentSessions(agent, query, { pool: h.pool, clock: h.clock, timeoutMs: h.agentTestTimeoutMs });
      const openAs = (acpSessionId: string) => store.sessions.byAcpSessionId(agent.id, acpSessionId)?.id;
      return { ...page, sessions: page.sessions.map((s) => ({ ...s, ...(openAs(s.acpSessionId) ? { openAs: openAs(s.acpSessionId) } : {}) })) };
    },
    'sessions:rename': (p) => {
      service.rename(p.sessionId, p.title);
      return service.view(service.row(p.sessionId));
    },
    'drafts:get': (p) => {
      service.row(p.sessionId);
      return { text: store.drafts.get(p.sessionId) };
    },
    'drafts:save': (p) => {
      service.row(p.sessionId);
      store.drafts.save(p.sessionId, p.text, h.clock.now());
      return { ok: true as const };
    },
    'windows:open': (p) => {
      service.row(p.sessionId);
      if (!h.openWindow) throw new AppError('unsupported', 'This host cannot open windows: open the session\'s address in a new tab');
      h.openWindow(p.sessionId);
      return { ok: true as const };
    },
    'terminals:read': (p) => service.terminalSnapshot(p.sessionId, p.terminalId),
    'search:query': (p) => {
      const { matches, truncated } = eventLog.search.search(p.query, p.limit);
      const groups = matches.flatMap((m) => {
        const row = store.sessions.get(m.sessionId);
        if (!row) return [];
        const view = service.view(row);
        return [{ sessionId: m.sessionId, title: view.title, cwd: view.cwd, agentId: view.agentId, hits: m.hits, more: m.more }];
      });
      const indexing = h.searchProgress();
      return { groups, truncated, ...(indexing ? { indexing } : {}) };
    },
  };
}
