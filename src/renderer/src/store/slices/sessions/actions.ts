import { MAX_SESSIONS_LISTED, type Api, type CommandRequest, type CommandResponse, type Result, type SessionViewT, type SwitchResultT, type WireError } from '../../../../../shared/contract';
import type { GetState, SetState } from '../../app-store';
import type { StoreDeps } from '../../deps';
import { activityOrder, placeInOrder } from '../../../lib/sidebar-rows';
import { LayeredMap } from '../../../lib/layered-map';
import { sessionsSelectors } from './selectors';

/** What a new session is started with (the New session dialog's choices); the host fills in what is absent. */
type NewSessionChoice = Omit<CommandRequest<'sessions:create'>, 'id'>;

/** How many recent folders the window keeps (the host keeps as many). */
const RECENT_FOLDERS_KEPT = 10;
/** Sessions asked for first at start: more than a tall sidebar shows. */
export const FIRST_SESSIONS = 100;
/** The sessions of each later page of the list. */
export const SESSIONS_PAGE = 1_000;

export interface SessionsActions {
  /** First load: host info, the session list, then the session that was current last time. */
  start(): Promise<void>;
  /** `firstCount`: the newest so many are asked for first and shown while the whole list comes (the window's start). */
  refreshSessions(firstCount?: number): Promise<void>;
  /** Applies a pushed or answered view unless a newer one is already known. */
  upsertSession(view: SessionViewT): void;
  switchSession(sessionId: string): Promise<void>;
  /** Shows `sessionId` scrolled to event `seq` (a search hit), loading the page around it. */
  openAt(sessionId: string, seq: number): Promise<void>;
  /**
   * Asks the host for a new session (`choice`, else the last choices: the last agent and the
   * most recent folder) and makes its id current at once, so the composer targets it while
   * `sessions:create` is in flight; the switch and transcript load follow the answer. Returns
   * the id.
   */
  startSession(choice?: NewSessionChoice): string;
  /**
   * Resolves when `sessionId` exists on the host: undefined, or the error its creation failed
   * with. At once for a session that is not being created.
   */
  whenCreated(sessionId: string): Promise<WireError | undefined>;
  /** Whether `sessionId` is still being created on the host (then `whenCreated` waits). */
  isCreating(sessionId: string): boolean;
  /** The agent New session uses from now on. */
  chooseAgent(agentId: string): void;
  closeSession(sessionId: string): Promise<void>;
  /** After a reconnect: watch the current session again and catch up from lastSeq. */
  resubscribe(): Promise<void>;
}

/** Where the pushes about pending requests stood when a switch was asked for. */
type PendingMarks = { permissions: number; questions: number };

/** Each attempt waits (bounded) for the link to come back, so this bounds the total wait. */
const MAX_CREATE_ATTEMPTS = 10;

/** The sidebar's order: most recent activity first (a prompt, a reply, a permission request). */
function newestFirst(byId: ReadonlyMap<string, SessionViewT>): string[] {
  return activityOrder(byId.values());
}

/** The view moves in the order: it is new, or its activity time changed. */
function moves(known: SessionViewT | undefined, view: SessionViewT): boolean {
  return !known || known.lastActivityAt !== view.lastActivityAt || known.createdAt !== view.createdAt;
}

/** `known` was updated after `incoming` (strictly). */
function isNewer(known: SessionViewT | undefined, incoming: SessionViewT): boolean {
  return known !== undefined && known.updatedAt > incoming.updatedAt;
}

function isStale(known: SessionViewT | undefined, incoming: SessionViewT): boolean {
  return known !== undefined && incoming.updatedAt < known.updatedAt;
}

export function createSessionsActions(set: SetState, get: GetState, deps: StoreDeps): SessionsActions {
  const { api } = deps;
  /** The session this window last asked the host to watch: the next switch's `fromSessionId`. */
  let watched: string | undefined;
  /** Sessions being created, with what their creation ended in. */
  const creating = new Map<string, Promise<WireError | undefined>>();

  /**
   * Running and pending requests come from the switch answer, unless something newer was pushed
   * after it was asked for (`mark`): a view with a later `updatedAt` stays, and so do permission
   * requests pushed (or resolved) since. Apply it as soon as it arrives.
   */
  const applySwitchAnswer = (answer: SwitchResultT, mark: PendingMarks): void => {
    const known = get().sessionsById.get(answer.session.id);
    if (!isNewer(known, answer.session)) {
      const view: SessionViewT = {
        ...answer.session,
        running: answer.running,
        pendingPermissions: answer.pendingPermissions.length,
        pendingQuestions: answer.pendingQuestions.length,
      };
      const from = get().sessionsById;
      const byId = LayeredMap.withEntry(from, view.id, view);
      set({ sessionsById: byId, sessionsChanged: { from, to: byId, ids: [view.id] }, ...(moves(known, view) ? { sessionOrder: placeInOrder(get().sessionOrder, byId, view) } : {}) });
    }
    if (get().currentSessionId === answer.session.id) {
      get().applyPermissionsSnapshot(answer.pendingPermissions, mark.permissions);
      get().applyQuestionsSnapshot(answer.pendingQuestions, mark.questions);
    }
    if (answer.availableCommands) get().commandsSeen(answer.session.id, answer.lastSeq, answer.availableCommands);
    if (answer.controls) get().receiveControls({ sessionId: answer.session.id, controls: answer.controls });
  };

  /**
   * Sends `sessions:switch` now (synchronously), unwatching the previously watched session.
   * A switch that fails leaves the host watching the target (it subscribes before it can fail)
   * and still watching `from` (dropped only on success): both are detached unless the window
   * has asked to watch them since.
   */
  const requestSwitch = (sessionId: string): { mark: PendingMarks; answer: ReturnType<Api['sessions:switch']> } => {
    const from = watched;
    watched = sessionId;
    const mark = { permissions: get().permissionsMark(), questions: get().questionsMark() };
    const answer = api['sessions:switch'](
      from && from !== sessionId ? { sessionId, fromSessionId: from } : { sessionId },
    ).then((res) => {
      if (!res.ok && res.error.code !== 'disconnected') {
        if (watched === sessionId) watched = undefined;
        for (const id of new Set([sessionId, from])) {
          if (id !== undefined && id !== watched) void api['sessions:detach']({ sessionId: id });
        }
      }
      return res;
    });
    return { mark, answer };
  };

  /** Switches the host's attention to the session the transcript was begun for. */
  const loadSwitched = async (sessionId: string, token: number, atSeq?: number): Promise<void> => {
    deps.lastSession.set(sessionId);
    const { mark, answer } = requestSwitch(sessionId);
    const res = await answer;
    if (get().transcript.token !== token) return;
    if (!res.ok) {
      set({ switchError: res.error });
      get().failTranscript(token, res.error);
      return;
    }
    applySwitchAnswer(res.value, mark);
    if (atSeq === undefined) await get().loadNewestPage(token, res.value.lastSeq, { switched: true });
    else await get().loadAround(token, atSeq, res.value.lastSeq);
  };

  /**
   * The window stops showing `sessionId`: its events are no longer applied here, so rows of its
   * accepted prompts (stored on the host) would never see their user_message and go.
   */
  const leave = (sessionId: string): void => {
    get().dropPrompts(get().acceptedPromptIds(sessionId));
  };

  /** `sessions:create`, retried with the same id while the link is down. */
  const createOnHost = async (
    id: string,
    choice: NewSessionChoice,
  ): Promise<Result<CommandResponse<'sessions:create'> | undefined>> => {
    for (let attempt = 1; ; attempt++) {
      const res = await api['sessions:create']({ id, ...choice });
      if (res.ok) return res;
      // The answer to an earlier attempt was lost, not the request: the session is there.
      if (res.error.code === 'already_exists' && attempt > 1) return { ok: true, value: undefined };
      if (res.error.code === 'disconnected' && attempt < MAX_CREATE_ATTEMPTS) continue;
      return res;
    }
  };

  /** Ctrl/Cmd+N and a first message with no session: the agent and folder chosen last. */
  const lastChoices = (): NewSessionChoice => {
    const agentId = sessionsSelectors.agentIdForCreate(get());
    const cwd = get().recentFolders[0];
    return { ...(agentId === undefined ? {} : { agentId }), ...(cwd === undefined ? {} : { cwd }) };
  };

  /** The folder a session started in is the most recent one now (as the host records it). */
  const usedFolder = (cwd: string): void => {
    set({ recentFolders: [cwd, ...get().recentFolders.filter((f) => f !== cwd)].slice(0, RECENT_FOLDERS_KEPT) });
  };

  /** Makes a new id current and creates it on the host, then shows it. */
  const begin = (choice: NewSessionChoice = lastChoices()): string => {
    const id = deps.newId();
    const back = get().currentSessionId;
    const token = get().beginTranscript(id);
    if (back !== undefined) leave(back);
    set({ currentSessionId: id, creatingSessionId: id, switchError: undefined, sendError: undefined });
    get().setPendingPermissions([]);
    get().setPendingQuestions([]);
    let settle!: (error: WireError | undefined) => void;
    creating.set(id, new Promise((resolve) => (settle = resolve)));
    // Its outcome shows in the store: the session, or a notice and the view the window had.
    void (async () => {
      const res = await createOnHost(id, choice);
      creating.delete(id);
      if (get().creatingSessionId === id) set({ creatingSessionId: undefined });
      if (!res.ok) {
        get().pushNotice(`Could not start a session: ${res.error.message}`);
        // Back to what the window showed before, unless the user moved on meanwhile.
        if (get().currentSessionId === id) {
          if (back !== undefined && get().sessionsById.has(back)) void get().switchSession(back);
          else set({ currentSessionId: undefined });
        }
        settle(res.error);
        return;
      }
      if (res.value) {
        get().upsertSession(res.value);
        usedFolder(res.value.cwd);
      }
      // The switch request goes out before the prompts that waited for this session.
      const shown = get().currentSessionId === id && get().transcript.token === token;
      const switching = shown ? loadSwitched(id, token) : undefined;
      settle(undefined);
      await switching;
    })();
    return id;
  };

  /** Makes `sessionId` current and loads it (its newest page, or the page around `atSeq`). */
  const show = async (sessionId: string, atSeq?: number): Promise<void> => {
    const from = get().currentSessionId;
    const token = get().beginTranscript(sessionId);
    if (from !== undefined && from !== sessionId) leave(from);
    set({ currentSessionId: sessionId, switchError: undefined, sendError: undefined });
    get().setPendingPermissions([]);
    get().setPendingQuestions([]);
    await loadSwitched(sessionId, token, atSeq);
  };

  return {
    async start() {
      await Promise.all([get().loadHostInfo(), get().refreshSessions(FIRST_SESSIONS), get().loadRecentFolders()]);
      const last = deps.lastSession.get();
      if (last && get().sessionsById.has(last) && get().currentSessionId === undefined) {
        // Not awaited: booted means "the current session is decided", not "its page is in".
        void get().switchSession(last);
      }
      set({ booted: true });
    },

    async refreshSessions(firstCount) {
      // Sessions are never deleted, so merge: a view pushed while the list was in flight stays.
      const merge = (views: readonly SessionViewT[], loaded: boolean): void => {
        const byId = new Map(get().sessionsById);
        for (const view of views) if (!isStale(byId.get(view.id), view)) byId.set(view.id, view);
        set({ sessionsById: byId, sessionOrder: newestFirst(byId), ...(loaded ? { sessionsLoaded: true } : {}) });
      };
      // The list comes a page at a time, each from the last session of the one before: at start a
      // screenful first, so on a data folder of tens of thousands the sidebar paints its top from
      // a small answer; then pages that hold neither the host nor this window long (one answer of
      // 10,000 views took the window ~250 ms to check and show). Not yet "loaded": the empty state,
      // and the attention that takes the first full list as old news, wait for the whole list.
      let limit = firstCount !== undefined && !get().sessionsLoaded ? firstCount : SESSIONS_PAGE;
      let after: CommandRequest<'sessions:list'>['after'];
      for (let listed = 0; ; ) {
        const res = await api['sessions:list']({ limit, ...(after ? { after } : {}) });
        if (!res.ok) {
          if (res.error.code !== 'disconnected') get().pushNotice(`Could not load sessions: ${res.error.message}`);
          return;
        }
        listed += res.value.length;
        const last = res.value.at(-1);
        const done = !last || res.value.length < limit || listed >= MAX_SESSIONS_LISTED;
        merge(res.value, done);
        if (done) return;
        after = { createdAt: last.createdAt, id: last.id };
        limit = Math.min(SESSIONS_PAGE, MAX_SESSIONS_LISTED - listed);
      }
    },

    upsertSession(view) {
      const known = get().sessionsById.get(view.id);
      if (isStale(known, view)) return;
      const from = get().sessionsById;
      const byId = LayeredMap.withEntry(from, view.id, view);
      set({ sessionsById: byId, sessionsChanged: { from, to: byId, ids: [view.id] }, ...(moves(known, view) ? { sessionOrder: placeInOrder(get().sessionOrder, byId, view) } : {}) });
    },

    async switchSession(sessionId) {
      const from = get().currentSessionId;
      const t = get().transcript;
      if (from === sessionId && t.sessionId === sessionId && !t.error && !get().switchError) return;
      await show(sessionId);
    },

    async openAt(sessionId, seq) {
      const t = get().transcript;
      const loaded = t.loaded && t.oldestSeq !== undefined && seq >= t.oldestSeq && seq <= t.lastSeq;
      if (get().currentSessionId === sessionId && t.sessionId === sessionId && loaded && !t.error) {
        get().focusSeq(seq);
        return;
      }
      await show(sessionId, seq);
    },

    startSession(choice) {
      return begin(choice);
    },

    whenCreated(sessionId) {
      return creating.get(sessionId) ?? Promise.resolve(undefined);
    },

    isCreating(sessionId) {
      return creating.has(sessionId);
    },

    chooseAgent(agentId) {
      set({ chosenAgentId: agentId });
    },

    async closeSession(sessionId) {
      const res = await api['sessions:close']({ sessionId });
      if (res.ok) get().upsertSession(res.value);
      else get().pushNotice(`Could not close the session: ${res.error.message}`);
    },

    async resubscribe() {
      const current = get().currentSessionId;
      // A session still being created is switched to by its creation, once it exists.
      const sessionId = current !== undefined && !creating.has(current) ? current : undefined;
      const token = get().transcript.token;
      // The switch goes out first, before requests queued while down (e.g. a prompt retry), and
      // its answer is applied the moment it arrives: events pushed after it are newer.
      const switching = sessionId
        ? (async () => {
            const { mark, answer } = requestSwitch(sessionId);
            const res = await answer;
            if (get().transcript.token !== token) return undefined;
            if (!res.ok) {
              if (res.error.code !== 'disconnected') set({ switchError: res.error });
              return undefined;
            }
            set({ switchError: undefined });
            applySwitchAnswer(res.value, mark);
            return res.value;
          })()
        : undefined;
      const [, , switched] = await Promise.all([get().loadHostInfo(), get().refreshSessions(), switching]);
      if (!switched || get().transcript.token !== token) return;
      if (get().transcript.loaded) await get().catchUp();
      else await get().loadNewestPage(token, switched.lastSeq, { switched: true });
    },
  };
}
