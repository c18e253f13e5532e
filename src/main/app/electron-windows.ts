/**
 * The window port on Electron: the one place windows are made (`BrowserWindow`), screens read
 * (`screen`) and message boxes shown (`dialog`) for the window manager. No logic of its own.
 */
import { BrowserWindow, dialog, screen } from 'electron';
import type { ShellWindow, WindowPort } from './window-port';

/** Ours: a `BrowserWindow` is the port's window (checked here, at compile time). */
const asShellWindow = (win: BrowserWindow): ShellWindow => win;

export function electronWindows(): WindowPort {
  return {
    create: ({ bounds, ...options }) => asShellWindow(new BrowserWindow({ ...options, ...bounds, show: false })),
    workAreas: () => {
      const primary = screen.getPrimaryDisplay();
      return [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)].map((d) => d.workArea);
    },
    focusedBounds: () => BrowserWindow.getFocusedWindow()?.getBounds(),
    showMessageBox: async (parent, box) => {
      // Every window this port makes is a BrowserWindow; the box is modal to it.
      const { response } = parent instanceof BrowserWindow ? await dialog.showMessageBox(parent, box) : await dialog.showMessageBox(box);
      return response;
    },
  };
}
