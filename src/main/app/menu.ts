/** The application menu: New window on the same host, and the standard Edit/View/Window menus. */
import { Menu, type MenuItemConstructorOptions } from 'electron';

export const NEW_WINDOW_MENU_ID = 'new-window';

export interface MenuActions {
  newWindow(): void;
}

export function buildAppMenu(actions: MenuActions, platform: NodeJS.Platform = process.platform): Menu {
  const isMac = platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' } satisfies MenuItemConstructorOptions] : []),
    {
      label: '&File',
      submenu: [
        {
          id: NEW_WINDOW_MENU_ID,
          label: 'New Window',
          accelerator: 'CmdOrCtrl+Shift+N',
          click: () => actions.newWindow(),
        },
        { type: 'separator' },
        { role: 'close' },
        ...(isMac ? [] : [{ type: 'separator' } as const, { role: 'quit', label: 'Quit', accelerator: 'CmdOrCtrl+Q' } as const]),
      ],
    },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
  return Menu.buildFromTemplate(template);
}
