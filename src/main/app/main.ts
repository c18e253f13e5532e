/**
 * Electron main entry: real Electron wired into the desktop composition (`desktop.ts`). The
 * SessionHost knows nothing of Electron; this file gives it a data dir, the Electron-ABI SQLite
 * binding, the keychain and the folder chooser, and the shell's ports their Electron halves.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, dialog, ipcMain, Menu, session } from 'electron';
import { defaultDataDir } from '../datadir/paths';
import { SessionHost } from '../host/session-host';
import { ElectronIpcTransport, rendererUrlMatcher } from '../transport/electron-ipc';
import { createLogger } from '../util/log';
import { startDesktop } from './desktop';
import { electronWindows } from './electron-windows';
import { electronFolderPicker } from './folder-picker';
import { electronFileSaver, electronOpenExternal } from './system-ports';
import { buildAppMenu } from './menu';
import { resolveNativeBinding } from './native-binding';
import { safeStorageBox } from './safe-storage-box';
import { installGlobalGuards, installSessionSecurity, type SecurityOptions } from './security';
import { StartProblem } from './start-failure';
import { WaitingBadge } from './waiting-badge';
import { WINDOW_STATE_FILE } from './window-state';
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

startDesktop({
  app,
  platform: process.platform,
  log,
  showErrorBox: (title, message) => dialog.showErrorBox(title, message),
  secure: () => {
    // No page exists before the app is ready, so every webContents is guarded from here on.
    installGlobalGuards(app, security);
    installSessionSecurity(session.defaultSession, security);
  },
  startHost: async (shell) => {
    const binding = resolveNativeBinding({
      appPath: app.getAppPath(),
      isPackaged: app.isPackaged,
      resourcesPath: process.resourcesPath,
      env: process.env,
    });
    if (binding.kind === 'missing') {
      throw new StartProblem(
        'Switchboard cannot open its database',
        `The SQLite module built for Electron is missing:\n${binding.expected}\n\n${binding.hint}`,
      );
    }
    const secretBox = safeStorageBox();
    return SessionHost.start({
      dataDir,
      headless: false,
      folderPicker: electronFolderPicker(),
      openExternal: electronOpenExternal(),
      saveFile: electronFileSaver(),
      openWindow: shell.openWindow,
      ...(secretBox ? { secretBox } : {}),
      ...(binding.kind === 'file' ? { nativeBinding: binding.path } : {}),
      log: createLogger(undefined, 'host'),
    });
  },
  createTransport: (host) => new ElectronIpcTransport({ ipcMain, host, isRendererUrl: security.isRendererUrl, log: log.child('ipc') }),
  createWindows: (transport) =>
    new WindowManager({
      port: electronWindows(),
      preloadPath,
      rendererUrl,
      isRendererUrl: security.isRendererUrl,
      stateFile: join(dataDir, WINDOW_STATE_FILE),
      transport,
      log: log.child('windows'),
    }),
  // macOS dock and Linux launchers (Unity API); Windows has no count badge.
  createBadge: (host) => new WaitingBadge(host, (count) => app.setBadgeCount(count), log.child('badge')),
  setMenu: (actions) => Menu.setApplicationMenu(buildAppMenu(actions)),
});
