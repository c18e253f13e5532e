import type { PermissionViewT, QuestionViewT, Result, SwitchResultT } from '../../../shared/contract';
import { alwaysOpen, type ConnectionMonitor } from '../api/connection';
import { createAppStore } from '../store/app-store';
import { bindApi } from '../store/bind-api';
import { FakeApi, SID, testDeps, view } from './fake-api';

export const ok = <T,>(value: T): Result<T> => ({ ok: true, value });

/** What a command answers when the link to the host dropped. */
export const lost = { ok: false as const, error: { code: 'disconnected' as const, message: 'lost' } };

export function permission(requestId: string, sessionId = SID, title = 'Edit file'): PermissionViewT {
  return {
    requestId,
    sessionId,
    toolCall: { toolCallId: `t-${requestId}`, title },
    options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
    createdAt: 1,
  };
}

/** A form question with a required email field and an optional secret one. */
export function question(requestId: string, sessionId = SID): QuestionViewT {
  return {
    requestId,
    sessionId,
    question: {
      mode: 'form',
      message: 'Who are you?',
      form: {
        title: 'About you',
        fields: [
          { kind: 'text', name: 'email', label: 'Email', required: true, format: 'email', patternEnforced: false, secret: false, description: 'Where replies go' },
          { kind: 'text', name: 'token', label: 'Token', required: false, patternEnforced: false, secret: true },
        ],
      },
    },
    createdAt: 1,
  };
}

export function answer(over: Partial<SwitchResultT> = {}): SwitchResultT {
  return { session: view(), running: false, lastSeq: 0, pendingPermissions: [], pendingQuestions: [], ...over };
}

/**
 * A store bound to a fake host that answers the start-up commands (`host:info`,
 * `sessions:list`, `sessions:detach`), so a test scripts only what it is about.
 */
export function boundStore(connection: ConnectionMonitor = alwaysOpen) {
  const fake = new FakeApi();
  const deps = testDeps(fake, { pageSize: 50 });
  const store = createAppStore(deps);
  bindApi(store, fake.api, connection);
  fake
    .handle('host:info', () => ({ ok: false, error: { code: 'internal', message: 'n/a' } }))
    .handle('sessions:list', () => ok([]))
    .handle('sessions:detach', () => ok({ ok: true as const }));
  return { fake, store };
}

export type BoundStore = ReturnType<typeof boundStore>;

/** Switches the window to `sessionId`, an empty session the host answers for at once. */
export async function showSession(ctx: BoundStore, sessionId = SID): Promise<void> {
  ctx.fake
    .handle('sessions:switch', (req) => ok(answer({ session: view({ id: req.sessionId }) })))
    .handle('transcript:page', () => ok({ events: [], hasMore: false }));
  await ctx.store.getState().switchSession(sessionId);
}
