import { BrowserWindow, dialog } from 'electron';
import type { FolderPicker } from '../workspace/folders';

/**
 * The host's folder picker in the desktop app: the system's folder chooser, attached to the
 * focused window (modal to it) when there is one. Cancelled answers undefined.
 */
export function electronFolderPicker(): FolderPicker {
  return {
    async pick() {
      const options: Electron.OpenDialogOptions = { title: 'Choose the folder the agent works in', properties: ['openDirectory', 'createDirectory'] };
      const parent = BrowserWindow.getFocusedWindow();
      const res = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
      return res.canceled ? undefined : res.filePaths[0];
    },
  };
}
