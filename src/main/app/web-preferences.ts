/**
 * The one set of `webPreferences` every Switchboard window gets. Kept apart from the window
 * code so a test can check each setting: a renderer shows agent output, so it must stay a
 * sandboxed web page with no Node, no remote content and no way out but the preload's API.
 */
import type { WebPreferences } from 'electron';

export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    // The preload's world is not the page's: the page sees only `window.api`.
    contextIsolation: true,
    // The renderer process runs in Chromium's OS sandbox; the preload gets only sandboxed APIs.
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    // No <webview>, no dropping a file onto the window to navigate to it.
    webviewTag: false,
    navigateOnDragDrop: false,
    experimentalFeatures: false,
    spellcheck: true,
  };
}
