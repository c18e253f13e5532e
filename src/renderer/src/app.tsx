import { useCallback, useMemo, useState } from 'react';
import { DeleteConfirm } from './components/session/delete-confirm';
import { QuickSwitcher } from './components/keyboard/quick-switcher';
import { ShortcutsSheet } from './components/keyboard/shortcuts-sheet';
import { useShortcuts } from './components/keyboard/use-shortcuts';
import { AgentLogPanel } from './components/agent-log/agent-log-panel';
import { Composer } from './components/composer/composer';
import { ConnectionBanner, StorageBanner } from './components/app-frame/connection-banner';
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

function EmptyMain() {
  const hasSessions = useAppStore((s) => s.sessionOrder.length > 0);
  return (
    <div className="empty-main">
      <p>{hasSessions ? 'No session selected.' : 'Welcome to Switchboard.'}</p>
      <p className="muted">
        {hasSessions
          ? 'Pick one on the left, or type a message below to start a new one.'
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
      <SignInPanel />
      <AgentLogPanel key={sessionId} sessionId={sessionId} />
      <TranscriptView key={sessionId} />
      <PermissionStack />
      <QuestionStack />
      {readOnly ? <ReadOnlyNote /> : <Composer key={sessionId} sessionId={sessionId} />}
    </>
  );
}

export function App() {
  const currentSessionId = useAppStore((s) => s.currentSessionId);
  const booted = useAppStore((s) => s.booted);
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
      <header className="top-bar">
        <SearchBox />
      </header>
      <StorageBanner />
      <div className="app-body">
        <SessionSidebar onOpenSettings={openSettings} onOpenShortcuts={openShortcuts} />
        <main className="main">
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
      <ExportDialog />
      <Notices />
      <LiveAnnouncer />
    </div>
  );
}
