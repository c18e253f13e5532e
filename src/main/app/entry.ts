/**
 * The Electron app's entry. First thing, before the app claims its single-instance lock or its
 * data folder: is this process one of the app's own helpers (`--switchboard-role`, see
 * util/own-process.ts)? Then it runs that helper's script and nothing of the app. Otherwise
 * it loads the app (`main.ts`).
 */
import { join } from 'node:path';
import { app } from 'electron';
import { roleOf, roleScriptsIn, runRole, type RoleRun } from './roles';

let role: RoleRun | undefined;
try {
  role = roleOf(process.argv);
} catch (err) {
  process.stderr.write(`switchboard: ${(err as Error).message}\n`);
  process.exit(2);
}
if (role) {
  const name = role.role;
  // A helper, not the app: no GPU process, a browser profile of its own (never the app's),
  // no Dock icon. It never asks for the single-instance lock: the running app would take it
  // for a second launch and open a window.
  app.disableHardwareAcceleration();
  app.setPath('userData', join(app.getPath('temp'), 'switchboard-helpers', name));
  void app.whenReady().then(() => app.dock?.hide());
  runRole(role, roleScriptsIn(import.meta.dirname)).catch((err: unknown) => {
    process.stderr.write(`switchboard ${name}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
} else {
  void import('./main');
}
