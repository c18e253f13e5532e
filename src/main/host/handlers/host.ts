import { checkFolder, pickFolder } from '../../workspace/folders';
import type { Handlers } from '../dispatch';
import type { HostParts } from '../host-parts';

const ok = { ok: true as const };

/** The host itself, its settings, the machine's folders, windows and transcript search. */
export function hostHandlers(h: HostParts) {
  return {
    'host:info': (_p, ctx) => h.info(ctx.clientId),
    'settings:update': (p) => h.settings.update(p),
    'folders:check': (p) => checkFolder(p.path),
    'folders:recent': () => ({ folders: h.recentFolders() }),
    'folders:pick': () => pickFolder(h.folderPicker),
    'windows:open': (p) => (h.openWindow(p.sessionId), ok),
    'search:query': (p) => h.search(p.query, p.limit),
  } satisfies Partial<Handlers>;
}
