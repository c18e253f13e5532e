import { writeFile } from 'node:fs/promises';
import { BrowserWindow, dialog, shell } from 'electron';

/**
 * The page of a URL question the person accepted, in the system browser. The host passes only
 * an address it checked when the agent asked (http or https, its real host shown first), and
 * only on the person's click; this refuses anything else once more.
 */
export function electronOpenExternal(): (url: string) => void {
  return (url) => {
    if (!/^https?:\/\//i.test(url)) throw new Error('only web pages are opened');
    void shell.openExternal(url);
  };
}

/**
 * `Export…` in the desktop app: the system's save dialog, attached to the focused window, then
 * the file written where the person chose. Resolves with the path, or undefined when cancelled.
 */
export function electronFileSaver(): (suggestedName: string, text: string) => Promise<string | undefined> {
  return async (suggestedName, text) => {
    const extension = suggestedName.endsWith('.json') ? 'json' : 'md';
    const options: Electron.SaveDialogOptions = {
      title: 'Export the session',
      defaultPath: suggestedName,
      filters: [extension === 'json' ? { name: 'Switchboard session (JSON)', extensions: ['json'] } : { name: 'Markdown', extensions: ['md'] }],
    };
    const parent = BrowserWindow.getFocusedWindow();
    const res = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
    if (res.canceled || !res.filePath) return undefined;
    await writeFile(res.filePath, text, 'utf8');
    return res.filePath;
  };
}
