/**
 * Electron main entry: the composition root of the desktop app. The SessionHost knows nothing
 * of Electron; this file gives it a data dir and the Electron-ABI SQLite binding, plugs the IPC
 * transport into it and opens windows on it.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, dialog, ipcMain, Menu, session } from 'electron';
import { defaultDataDir } from '../datadir/paths';
import { SessionHost } from '../host/session-host';
import { ElectronIpcTransport, rendererUrlMatcher } from '../transport/electron-ipc';
import { createLogger } from '../util/log';
import { electronFolderPicker } from './folder-picker';
import { electronFileSaver, electronOpenExternal } from './system-ports';
import { installQuitHandling } from './lifecycle';
import { buildAppMenu } from './menu';
import { resolveNativeBinding } from './native-binding';
import { safeStorageBox } from './safe-storage-box';
import { startFailureDialog } from './start-failure';
import { installGlobalGuards, installSessionSecurity, type SecurityOptions } from './security';
import { WaitingBadge } from './waiting-badge';
import { sessionLocation, WINDOW_STATE_FILE } from './window-state';
import { WindowManager } from './windows';

const log = createLogger(undefined, 'app');

// Same folder as `switchboard serve`, so both see the same sessions. The env override gives
// tests (and a second, separate profile) their own data dir and their own single-instance lock.
const dataDir = process.env.SWITCHBOARD_DATA_DIR ? resolve(process.env.SWITCHBOARD_DATA_DIR) : defaultDataDir();
app.setName('Switchboard');
mkdirSync(dataDir, { recursive: true });
app.setPath('userData', dataDir);

// `electron-vite dev` serves the renderer; a packaged app never honours that variable.
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const rendererUrl = devServerUrl ?? pathToFileURL(join(import.meta.dirname, '../renderer/index.html')).href;
const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
const security: SecurityOptions = {
  isRendererUrl: rendererUrlMatcher(rendererUrl),
  sendCspHeader: devServerUrl === undefined,
  log: log.child('security'),
};

if (!app.requestSingleInstanceLock()) {
  // The running instance gets 'second-instance' and opens a window; nothing to do here.
  app.quit();
} else {
  run().catch((err: unknown) => {
    log.error('startup failed', { error: String(err) });
    dialog.showErrorBox('Switchboard could not start', err instanceof Error ? err.message : String(err));
    app.exit(1);
  });
}

async function run(): Promise<void> {
  installGlobalGuards(app, security);

  // Filled in as startup progresses; the quit and second-instance handlers exist before them.
  const started: {
    windows?: WindowManager;
    transport?: ElectronIpcTransport;
    badge?: WaitingBadge;
    host?: Promise<SessionHost | undefined>;
  } = {};

  const quitPhase = installQuitHandling({
    app,
    log,
    // SIGHUP: the terminal that ran `npm start` went away.
    signals: process.platform === 'win32' ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP'],
    shutdown: async () => {
      // Windows first: no command starts during the shutdown and every window is detached,
      // the same path a closed window takes. Then the host ends turns, sessions and agents.
      started.windows?.quitting();
      started.badge?.dispose();
      started.transport?.dispose();
      const host = await started.host;
      await host?.shutdown();
    },
  });

  app.on('second-instance', () => {
    if (!started.windows) return; // still starting: the first window is on its way
    started.windows.focusLatest();
    started.windows.open();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (started.windows?.count === 0) started.windows.open();
  });

  await app.whenReady();

  const binding = resolveNativeBinding({
    appPath: app.getAppPath(),
    isPackaged: app.isPackaged,
    resourcesPath: process.resourcesPath,
    env: process.env,
  });
  if (binding.kind === 'missing') {
    dialog.showErrorBox(
      'Switchboard cannot open its database',
      `The SQLite module built for Electron is missing:\n${binding.expected}\n\n${binding.hint}`,
    );
    app.exit(1);
    return;
  }

  const secretBox = safeStorageBox();
  const starting = SessionHost.start({
    dataDir,
    headless: false,
    folderPicker: electronFolderPicker(),
    openExternal: electronOpenExternal(),
    saveFile: electronFileSaver(),
    // The windows exist only after the host has started; a session's window shows it by address.
    openWindow: (sessionId) => {
      if (!started.windows) throw new Error('the windows are not ready yet');
      started.windows.open({ location: sessionLocation(sessionId) }).focus();
    },
    ...(secretBox ? { secretBox } : {}),
    ...(binding.kind === 'file' ? { nativeBinding: binding.path } : {}),
    log: createLogger(undefined, 'host'),
  });
  // Quit waits on this; a start that failed is reported just below (log and dialog), not here.
  started.host = starting.catch(() => undefined);
  let host: SessionHost;
  try {
    host = await starting;
  } catch (err) {
    log.error('host failed to start', { error: String(err) });
    const { title, message } = startFailureDialog(err);
    dialog.showErrorBox(title, message);
    app.exit(1);
    return;
  }

  if (quitPhase() !== 'running') return; // quit while starting: the quit handler stops the host

  installSessionSecurity(session.defaultSession, security);
  const transport = new ElectronIpcTransport({ ipcMain, host, isRendererUrl: security.isRendererUrl, log: log.child('ipc') });
  const windows = new WindowManager({
    preloadPath,
    rendererUrl,
    isRendererUrl: security.isRendererUrl,
    stateFile: join(dataDir, WINDOW_STATE_FILE),
    transport,
    log: log.child('windows'),
  });
  started.transport = transport;
  started.windows = windows;
  // macOS dock and Linux launchers (Unity API); Windows has no count badge.
  const badge = new WaitingBadge(host, (count) => app.setBadgeCount(count), log.child('badge'));
  started.badge = badge;
  badge.start().catch((err: unknown) => log.warn('the dock badge could not start', { error: String(err) }));
  Menu.setApplicationMenu(buildAppMenu({ newWindow: () => windows.open() }));
  windows.restore();
}
