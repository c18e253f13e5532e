/**
 * The demo agent's ACP surface: session lifecycle and prompt turns wired onto
 * an SDK `AgentApp`. Kept apart from the process entry so the wiring can be
 * read without the stdio and signal handling.
 */
import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentCapabilities as UnstableAgentCapabilities } from '@agentclientprotocol/sdk/unstable';
import type { AgentContext, ClientCapabilities, ContentBlock, McpServer, SessionUpdate } from '@agentclientprotocol/sdk';
import type { DemoAuth } from './auth';
import { NOT_LOGGED_IN } from './auth';
import { PROMPT_CAPABILITIES, describeBlocks } from './attachments';
import { availableCommands } from './commands';
import { FORK_METHOD, forkHistory, forkParams } from './fork';
import { type HistoryStore, SessionJournal, type SessionMeta } from './history-store';
import type { DemoLogger } from './log';
import type { McpMode } from './options';
import { defaultSettings, type DemoSettings, modeName, sessionSetup, setConfigOption, setMode, setModel, setModelParams } from './session-settings';
import { answerSlowly, closeSlowly, reportCancel } from './slow-requests';
import { runTurn, type TurnContext, type TurnUsage } from './turns';
import { UpdateSender } from './update-sender';

export const DEFAULT_TITLE = 'Demo session';

type LiveSession = {
  readonly id: string;
  cwd: string;
  additionalDirectories: string[];
  title: string;
  promptCount: number;
  readonly journal: SessionJournal;
  /** Set synchronously when a prompt arrives, so a racing second prompt or cancel sees it. */
  turn: AbortController | undefined;
  /** Mode, model and options (in memory: a new process starts from the defaults). */
  readonly settings: DemoSettings;
  /** `/usage` turns so far: the reported cost grows with each. */
  usageTurns: number;
  /** What the last `session/new`, `load`, `resume` or `fork` gave it (`/mcp` reports them). */
  mcpServers: McpServer[];
  readonly forkedFrom: SessionMeta['forkedFrom'];
};

export type DemoAgentDeps = {
  store: HistoryStore;
  log: DemoLogger;
  /** Ends the process at once; `/crash` uses it. */
  crash: () => never;
  /** Sign-in as the mode asks (`--auth`); its environment decides whether the key is set. */
  auth: DemoAuth;
  env: NodeJS.ProcessEnv;
  /** Queues a line on the agent's output behind the SDK's writes (see UpdateSender). */
  writeLine: (line: string) => Promise<void> | undefined;
  /** The mode new sessions start in (`--mode`); `ask` when absent. */
  startMode?: string;
  /** Which MCP servers it says it takes (`--mcp`); `all` when absent. */
  mcp?: McpMode;
  /** `--slow`: how long it takes before answering some requests (slow-requests.ts). */
  slow?: ReadonlyMap<string, number>;
  /** Writes a line to stderr whatever the log level (cancelled requests are reported there). */
  stderr?: (line: string) => void;
};

export type DemoAgent = {
  app: acp.AgentApp;
  /** Writes buffered history; call before the process exits. */
  flush(): void;
};

export function createDemoAgent({ store, log, crash, auth, env, writeLine, startMode, mcp = 'all', slow = new Map(), stderr = () => {} }: DemoAgentDeps): DemoAgent {
  /** Waits as `--slow` asks before answering `method`, and reports a `$/cancel_request` of it. */
  const pace = (method: string, signal: AbortSignal): Promise<void> => answerSlowly(slow, method, signal, stderr);
  const live = new Map<string, LiveSession>();
  /** The client takes boolean config options (its `initialize` said so). */
  let booleanOptions = false;
  let clientCapabilities: ClientCapabilities | undefined;

  /** `dirs`: the request's `additionalDirectories`, kept (and stored) when it names them. */
  const goLive = (meta: SessionMeta, cwd: string, mcpServers: McpServer[] | undefined, dirs?: string[]): LiveSession => {
    if (dirs !== undefined) store.updateMeta(meta.sessionId, { additionalDirectories: dirs });
    const existing = live.get(meta.sessionId);
    if (existing) {
      existing.cwd = cwd;
      if (dirs !== undefined) existing.additionalDirectories = dirs;
      existing.mcpServers = mcpServers ?? [];
      return existing;
    }
    const session: LiveSession = {
      id: meta.sessionId,
      cwd,
      additionalDirectories: dirs ?? meta.additionalDirectories ?? [],
      title: meta.title,
      promptCount: meta.promptCount,
      journal: new SessionJournal(store, meta.sessionId),
      turn: undefined,
      settings: defaultSettings(startMode, booleanOptions),
      usageTurns: 0,
      mcpServers: mcpServers ?? [],
      forkedFrom: meta.forkedFrom,
    };
    live.set(session.id, session);
    return session;
  };

  const liveOrThrow = (sessionId: string): LiveSession => {
    const session = live.get(sessionId);
    if (!session) throw acp.RequestError.sessionNotFound(sessionId);
    return session;
  };

  const updates = new UpdateSender(writeLine);
  const viaSdk = (client: AgentContext, sessionId: string, update: SessionUpdate): Promise<void> =>
    client.notify(acp.methods.client.session.update, { sessionId, update });
  const notify = (client: AgentContext, sessionId: string, update: SessionUpdate): Promise<void> =>
    updates.sdk(() => viaSdk(client, sessionId, update), sessionId);

  // Real agents announce these right after creating or restoring a session;
  // clients must not lose them even though they precede the response.
  const announce = async (client: AgentContext, session: LiveSession): Promise<void> => {
    await notify(client, session.id, { sessionUpdate: 'available_commands_update', availableCommands });
    // Like real agents before they have summarised anything: no title until `/title`, so the
    // client names the session after its first prompt.
    await notify(client, session.id, {
      sessionUpdate: 'session_info_update',
      ...(session.title === DEFAULT_TITLE ? {} : { title: session.title }),
      updatedAt: new Date().toISOString(),
    });
  };

  const app = acp
    .agent({ name: 'demo-agent' })
    .onRequest(acp.methods.agent.initialize, async ({ params, signal }) => {
      await pace('initialize', signal);
      log.info('initialize', { clientProtocolVersion: params.protocolVersion, clientInfo: params.clientInfo });
      booleanOptions = Boolean(params.clientCapabilities?.session?.configOptions?.boolean);
      clientCapabilities = params.clientCapabilities;
      // Typed with the unstable schema: `sessionCapabilities.fork` is not in the stable one yet.
      const agentCapabilities: UnstableAgentCapabilities = {
        loadSession: true,
        promptCapabilities: PROMPT_CAPABILITIES,
        // `/mcp tools` reaches all three kinds; `--mcp stdio` plays an agent that takes local servers only.
        mcpCapabilities: { http: mcp === 'all', sse: mcp === 'all' },
        sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {}, additionalDirectories: {}, fork: {} },
        // Only where there is a sign-in to end.
        ...(auth.canLogOut ? { auth: { logout: {} } } : {}),
      };
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities,
        agentInfo: { name: 'demo-agent', title: 'Switchboard demo agent', version: '0.1.0' },
        authMethods: auth.methodsFor(params.clientCapabilities),
      };
    })
    .onRequest(acp.methods.agent.authenticate, async ({ params, signal }) => {
      await pace('authenticate', signal);
      auth.authenticate(params.methodId, env);
      log.info('authenticated', { methodId: params.methodId });
      return {};
    })
    .onRequest(acp.methods.agent.logout, () => {
      auth.logout();
      log.info('logged out', {});
      return {};
    })
    // Prompt and cancel come first on purpose: the SDK dispatches messages
    // concurrently and every handler registered earlier costs a message one
    // more await, so this keeps a session/cancel or session/close sent right
    // after a prompt from overtaking it.
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client, signal }) => {
      const session = live.get(params.sessionId);
      if (!session) throw acp.RequestError.sessionNotFound(params.sessionId);
      auth.checkPrompt();
      // One turn at a time per session, rejected rather than queued: a queue
      // would hide a client that forgets to wait for the previous stopReason.
      if (session.turn) {
        throw acp.RequestError.invalidRequest(
          { sessionId: session.id },
          'a prompt turn is already running in this session; cancel it or wait for its stopReason',
        );
      }
      const turn = new AbortController();
      session.turn = turn;
      reportCancel('session/prompt', signal, stderr);
      // The request's own signal covers `$/cancel_request` and a closed connection.
      const onRequestAbort = (): void => turn.abort();
      signal.addEventListener('abort', onRequestAbort, { once: true });
      try {
        const text = promptText(params.prompt);
        const now = new Date().toISOString();
        session.journal.recordPrompt(text, now);
        const earlierPrompts = session.promptCount;
        session.promptCount += 1;
        store.recordTurn(session.id, session.promptCount, now);
        log.debug('turn start', { sessionId: session.id, text: text.slice(0, 80) });

        const send = updates.forTurn(session.id, (update) => viaSdk(client, session.id, update));
        let usage: TurnUsage | undefined;
        const ctx: TurnContext = {
          sessionId: session.id,
          cwd: session.cwd,
          additionalDirectories: session.additionalDirectories,
          signal: turn.signal,
          earlierPrompts,
          send: (update) => {
            session.journal.recordUpdate(update);
            return send(update);
          },
          requestPermission: async (toolCall, options) => {
            try {
              const res = await client.request(
                acp.methods.client.session.requestPermission,
                { sessionId: session.id, toolCall, options },
                { cancellationSignal: turn.signal },
              );
              return res.outcome;
            } catch (error) {
              // A client that refuses the request or drops it on cancel means "no".
              log.warn('permission request failed', { sessionId: session.id, error: String(error) });
              return { outcome: 'cancelled' };
            }
          },
          setTitle: (title) => {
            session.title = title;
            store.updateMeta(session.id, { title, updatedAt: new Date().toISOString() });
          },
          crash: () => {
            log.warn('crashing on request', { sessionId: session.id });
            return crash();
          },
          client,
          mode: () => session.settings.modeId,
          switchMode: (modeId) => {
            const name = modeName(modeId);
            if (name) session.settings.modeId = modeId;
            return name;
          },
          nextUsageTurn: () => ++session.usageTurns,
          reportUsage: (reported) => {
            usage = reported;
          },
          clientCapabilities,
          mcpServers: () => session.mcpServers,
          forkedFrom: session.forkedFrom,
          logout: () => {
            if (!auth.canLogOut) return 'Nothing to sign out of: this demo agent was started without --auth.';
            auth.logout();
            log.info('logged out', { sessionId: session.id });
            return 'Signed out. The next prompt needs a sign-in.';
          },
          notifyUnknown: (method) => client.notify(method, { sessionId: session.id }),
          requestUnknown: async (method) => {
            try {
              await client.request(method, { sessionId: session.id });
              return 'ok';
            } catch (error) {
              return error instanceof acp.RequestError ? `error ${error.code} (${error.message})` : String(error);
            }
          },
        };
        const received = describeBlocks(params.prompt);
        if (received) await ctx.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${received}\n\n` } });
        // A prompt of attachments alone has nothing to echo.
        const stopReason = text.trim() === '' && received ? 'end_turn' : await runTurn(ctx, text);
        log.debug('turn end', { sessionId: session.id, stopReason });
        // ACP's unstable `PromptResponse.usage`, which the SDK's stable types do not name.
        const response = usage ? { stopReason, usage } : { stopReason };
        return response;
      } finally {
        signal.removeEventListener('abort', onRequestAbort);
        session.journal.flush();
        if (session.turn === turn) session.turn = undefined;
      }
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      const session = live.get(params.sessionId);
      log.info('cancel', { sessionId: params.sessionId, running: Boolean(session?.turn) });
      session?.turn?.abort();
    })
    .onRequest(acp.methods.agent.session.new, async ({ params, client, signal }) => {
      await pace('session/new', signal);
      auth.checkNewSession();
      const now = new Date().toISOString();
      const meta: SessionMeta = {
        sessionId: randomUUID(),
        cwd: params.cwd,
        title: DEFAULT_TITLE,
        createdAt: now,
        updatedAt: now,
        promptCount: 0,
        ...(params.additionalDirectories?.length ? { additionalDirectories: params.additionalDirectories } : {}),
      };
      store.create(meta);
      const session = goLive(meta, params.cwd, params.mcpServers);
      log.info('session created', { sessionId: session.id, cwd: params.cwd, mcpServers: params.mcpServers.length });
      await announce(client, session);
      // Like agents that start without an account and say so in the session, not as an error.
      if (auth.mode === 'status' && !auth.isSignedIn) {
        await notify(client, session.id, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: NOT_LOGGED_IN } });
      }
      return { sessionId: session.id, ...sessionSetup(session.settings) };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client, signal }) => {
      await pace('session/load', signal);
      const meta = store.readMeta(params.sessionId);
      if (!meta) throw acp.RequestError.sessionNotFound(params.sessionId);
      const session = goLive(meta, params.cwd, params.mcpServers, params.additionalDirectories);
      session.journal.flush();
      const entries = store.readEntries(session.id);
      log.info('session load', { sessionId: session.id, entries: entries.length });
      for (const entry of entries) {
        // Awaiting each one keeps a long replay from piling up in memory.
        await notify(
          client,
          session.id,
          entry.kind === 'prompt'
            ? { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: entry.text } }
            : entry.update,
        );
      }
      await announce(client, session);
      return sessionSetup(session.settings);
    })
    .onRequest(acp.methods.agent.session.resume, async ({ params, client, signal }) => {
      await pace('session/resume', signal);
      const meta = store.readMeta(params.sessionId);
      if (!meta) throw acp.RequestError.sessionNotFound(params.sessionId);
      const session = goLive(meta, params.cwd, params.mcpServers, params.additionalDirectories);
      log.info('session resume', { sessionId: session.id });
      await announce(client, session);
      return sessionSetup(session.settings);
    })
    .onRequest(FORK_METHOD, forkParams, async ({ params, client, signal }) => {
      await pace('session/fork', signal);
      auth.checkNewSession();
      const source = store.readMeta(params.sessionId);
      if (!source) throw acp.RequestError.sessionNotFound(params.sessionId);
      // What a running turn has sent so far is part of the history being copied.
      live.get(source.sessionId)?.journal.flush();
      const meta = forkHistory(store, source, params, new Date().toISOString());
      const session = goLive(meta, params.cwd, params.mcpServers);
      log.info('session forked', { sessionId: session.id, from: source.sessionId, prompts: session.promptCount });
      // Like session/new: no replay (the client has the transcript), the usual announcements.
      await announce(client, session);
      return { sessionId: session.id, ...sessionSetup(session.settings) };
    })
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      setMode(liveOrThrow(params.sessionId).settings, params.modeId);
      log.info('mode set', { sessionId: params.sessionId, modeId: params.modeId });
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
      const configOptions = setConfigOption(liveOrThrow(params.sessionId).settings, params.configId, params.value);
      log.info('config option set', { sessionId: params.sessionId, configId: params.configId });
      return { configOptions };
    })
    .onRequest('session/set_model', setModelParams, ({ params }) => {
      setModel(liveOrThrow(params.sessionId).settings, params.modelId);
      log.info('model set', { sessionId: params.sessionId, modelId: params.modelId });
      return {};
    })
    .onRequest(acp.methods.agent.session.close, async ({ params, signal }) => {
      await closeSlowly(slow, signal, stderr);
      const session = live.get(params.sessionId);
      if (!session) {
        if (!store.readMeta(params.sessionId)) throw acp.RequestError.sessionNotFound(params.sessionId);
        return {};
      }
      session.turn?.abort();
      session.journal.flush();
      live.delete(session.id);
      log.info('session closed', { sessionId: session.id });
      return {};
    })
    .onRequest(acp.methods.agent.session.delete, ({ params }) => {
      const session = live.get(params.sessionId);
      session?.turn?.abort();
      live.delete(params.sessionId);
      if (!store.remove(params.sessionId)) throw acp.RequestError.sessionNotFound(params.sessionId);
      log.info('session deleted', { sessionId: params.sessionId });
      return {};
    })
    .onRequest(acp.methods.agent.session.list, async ({ params, signal }) => {
      await pace('session/list', signal);
      return {
        sessions: store.list(params.cwd ?? undefined).map((m) => ({
          sessionId: m.sessionId,
          cwd: m.cwd,
          title: m.title,
          updatedAt: m.updatedAt,
          ...(m.additionalDirectories?.length ? { additionalDirectories: m.additionalDirectories } : {}),
        })),
      };
    });

  return {
    app,
    flush: () => {
      for (const session of live.values()) session.journal.flush();
    },
  };
}

function promptText(blocks: ContentBlock[]): string {
  return blocks
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n');
}
