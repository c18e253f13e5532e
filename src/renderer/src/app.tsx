import { useCallback, useMemo, useState } from 'react';
import { DeleteConfirm } from './components/session/delete-confirm';
import { ConfirmDialog } from './components/app-frame/confirm-dialog';
import { ChangesPanel } from './components/workspace/changes-panel';
import { CompareView } from './components/workspace/compare-view';
import { SetupLive } from './components/workspace/workspace-rows';
import { QuickSwitcher } from './components/keyboard/quick-switcher';
import { ShortcutsSheet } from './components/keyboard/shortcuts-sheet';
import { useShortcuts } from './components/keyboard/use-shortcuts';
import { AgentLogPanel } from './components/agent-log/agent-log-panel';
import { Composer } from './components/composer/composer';
import { ConnectionBanner, StorageBanner } from './components/app-frame/connection-banner';
import { HostProblemBanner } from './components/app-frame/host-problem-banner';
import { ErrorBoundary } from './components/app-frame/error-boundary';
import { LiveAnnouncer } from './components/app-frame/live-announcer';
import { Notices } from './components/app-frame/notices';
import { PermissionStack } from './components/permissions/permission-dialog';
import { QuestionStack } from './components/questions/question-prompt';
import { ExportDialog } from './components/session/export-dialog';
import { ReadOnlyNote } from './components/session/read-only-note';
import { SessionHeader } from './components/session/session-header';
import { SignInPanel } from './components/sign-in/sign-in-panel';
import { SettingsDialog } from './components/settings/settings-dialog';
import { SessionSidebar } from './components/sidebar/session-sidebar';
import { NewSessionDialog } from './components/new-session/new-session-dialog';
import { NewSessionShortcut } from './components/new-session/new-session-shortcut';
import { SearchBox } from './components/search/search-box';
import { TranscriptView } from './components/transcript/transcript-view';
import { useAppStore, useStoreApi } from './store/context';
import { useNarrow } from './components/app-frame/use-narrow';
import { waitingCount } from './store/attention';
import { sessionsSelectors } from './store/slices/sessions/selectors';

const SIDEBAR_ID = 'sessions-sidebar';
const WAITING_ID = 'sessions-waiting';

function EmptyMain() {
  const hasSessions = useAppStore((s) => s.sessionOrder.length > 0);
  return (
    <div className="empty-main">
      <p>{hasSessions ? 'No session selected.' : 'Welcome to Switchboard.'}</p>
      <p className="muted">
        {hasSessions
          ? 'Pick one from the session list, or type a message below to start a new one.'
          : 'Type a message below to start your first session, or choose New session.'}
      </p>
    </div>
  );
}

function SessionPane({ sessionId }: { sessionId: string }) {
  const readOnly = useAppStore((s) => s.sessionsById.get(sessionId)?.readOnly === true);
  return (
    <>
      <SessionHeader />
      <CompareView />
      <ChangesPanel />
      <SetupLive sessionId={sessionId} />
      <SignInPanel />
      <AgentLogPanel key={sessionId} sessionId={sessionId} />
      <TranscriptView key={sessionId} />
      <PermissionStack />
      <QuestionStack />
      {readOnly ? <ReadOnlyNote /> : <Composer key={sessionId} sessionId={sessionId} />}
    </>
  );
}

/** The phone layout's top bar: the Sessions drawer's button and New session (the sidebar holds both on a desktop). */
function PhoneBar({ drawerOpen, onOpenDrawer }: { drawerOpen: boolean; onOpenDrawer: () => void }) {
  const waiting = useAppStore(waitingCount);
  const creating = useAppStore(sessionsSelectors.isCreating);
  const openNewSession = useAppStore((s) => s.openNewSession);
  return (
    <>
      {/* Named Sessions whatever the count; the count of sessions waiting for the person is its description. */}
      <button
        type="button"
        className="button-secondary phone-only"
        aria-label="Sessions"
        aria-describedby={waiting > 0 ? WAITING_ID : undefined}
        aria-expanded={drawerOpen}
        aria-controls={SIDEBAR_ID}
        onClick={onOpenDrawer}
      >
        Sessions
        {waiting > 0 ? (
          <span className="count-badge" id={WAITING_ID}>
            {' '}
            {waiting}
            <span className="visually-hidden"> waiting for you</span>
          </span>
        ) : null}
      </button>
      <button type="button" className="button-primary phone-only" aria-label="New session" disabled={creating} onClick={openNewSession}>
        New
      </button>
    </>
  );
}

export function App() {
  const currentSessionId = useAppStore((s) => s.currentSessionId);
  const booted = useAppStore((s) => s.booted);
  const narrow = useNarrow();
  const [drawer, setDrawer] = useState(false);
  const drawerOpen = narrow && drawer;
  const closeDrawer = useCallback(() => setDrawer(false), []);
  const openDrawer = useCallback(() => setDrawer(true), []);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  const closeSettings = useCallback(() => setSettingsOpen(false), []);
  const [overlay, setOverlay] = useState<'switcher' | 'shortcuts' | undefined>(undefined);
  const closeOverlay = useCallback(() => setOverlay(undefined), []);
  const openShortcuts = useCallback(() => setOverlay('shortcuts'), []);
  const targets = useMemo(() => ({ openSwitcher: () => setOverlay('switcher'), openSheet: () => setOverlay('shortcuts') }), []);
  useShortcuts(useStoreApi(), targets);
  return (
    <div className="app">
      <ConnectionBanner />
      <header className="top-bar" inert={drawerOpen}>
        <PhoneBar drawerOpen={drawerOpen} onOpenDrawer={openDrawer} />
        <SearchBox />
      </header>
      <StorageBanner />
      <HostProblemBanner />
      <div className="app-body">
        <SessionSidebar
          id={SIDEBAR_ID}
          onOpenSettings={openSettings}
          onOpenShortcuts={openShortcuts}
          drawer={narrow ? { open: drawerOpen, onClose: closeDrawer } : undefined}
        />
        {drawerOpen ? <div className="drawer-scrim" aria-hidden="true" onClick={closeDrawer} /> : null}
        <main className="main" inert={drawerOpen}>
          {/* A failure inside one session's view leaves the sidebar working; keyed so switching resets it. */}
          <ErrorBoundary key={currentSessionId ?? 'none'} what="this session">
            {currentSessionId ? (
              <SessionPane sessionId={currentSessionId} />
            ) : (
              <>
                <EmptyMain />
                {/* Only once start() decided there is no session to restore, so typing cannot race it. */}
                {booted ? <Composer key="none" sessionId="" /> : null}
              </>
            )}
          </ErrorBoundary>
        </main>
      </div>
      {settingsOpen ? <SettingsDialog onClose={closeSettings} /> : null}
      <NewSessionDialog />
      <NewSessionShortcut />
      {overlay === 'switcher' ? <QuickSwitcher onClose={closeOverlay} /> : null}
      {overlay === 'shortcuts' ? <ShortcutsSheet onClose={closeOverlay} /> : null}
      <DeleteConfirm />
      <ConfirmDialog />
      <ExportDialog />
      <Notices />
      <LiveAnnouncer />
    </div>
  );
}
