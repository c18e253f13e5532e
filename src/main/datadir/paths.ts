import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The platform's user-data folder for Switchboard; the Electron app (userData) and `serve`
 * share it: ~/.config/Switchboard (Linux, or $XDG_CONFIG_HOME), ~/Library/Application
 * Support/Switchboard (macOS), %APPDATA%\Switchboard (Windows).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.SWITCHBOARD_DATA_DIR) return env.SWITCHBOARD_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Switchboard');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Switchboard');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'Switchboard');
}

export function dataPaths(dataDir: string) {
  return {
    database: join(dataDir, 'switchboard.db'),
    lock: join(dataDir, 'host.lock'),
    logs: join(dataDir, 'logs'),
    agents: join(dataDir, 'agents.json'),
    secrets: join(dataDir, 'secrets.json'),
    demoAgent: join(dataDir, 'demo-agent'),
    /** Sessions' worktrees, unless the `worktreeRoot` setting names another folder. */
    worktrees: join(dataDir, 'worktrees'),
    /** The workspace's scratch indexes (checkpoints) and throwaway diff indexes. */
    workspace: join(dataDir, 'workspace'),
  };
}

export type DataPaths = ReturnType<typeof dataPaths>;
