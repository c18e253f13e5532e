import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Opens a sign-in command (a terminal-login method an agent named) in the person's own terminal
 * window. Only the desktop app offers it: a headless host may run on another machine, where a
 * window would open in front of nobody.
 */
export interface TerminalLauncher {
  /** The terminal this launcher uses, for messages ("xterm"). */
  readonly name: string;
  /** `env`: variables the command needs besides the host's (the agent's own), never shown in the window. */
  open(command: string, cwd: string, env?: Record<string, string>): void;
}

interface Candidate {
  bin: string;
  /** The arguments that make `bin` run `script` in a shell and stay open. */
  args(script: string): string[];
}

/** Linux terminals, in the order a desktop's own choice comes first. */
const LINUX: readonly Candidate[] = [
  { bin: 'x-terminal-emulator', args: (s) => ['-e', 'sh', '-c', s] },
  { bin: 'gnome-terminal', args: (s) => ['--', 'sh', '-c', s] },
  { bin: 'konsole', args: (s) => ['-e', 'sh', '-c', s] },
  { bin: 'xfce4-terminal', args: (s) => ['-x', 'sh', '-c', s] },
  { bin: 'kitty', args: (s) => ['sh', '-c', s] },
  { bin: 'alacritty', args: (s) => ['-e', 'sh', '-c', s] },
  { bin: 'xterm', args: (s) => ['-e', 'sh', '-c', s] },
];

/** The command, then a line saying what to do next, and the window stays until Enter. */
export function shellScript(command: string): string {
  return `${command}; echo; echo 'Done: press Enter to close this window, then Retry in Switchboard.'; read _`;
}

function onPath(bin: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, bin);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

function launch(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): void {
  const child = spawn(file, args, { cwd, env, detached: true, stdio: 'ignore', windowsHide: false });
  // A terminal that fails to start is reported by the caller's check, never a host crash.
  child.on('error', () => {});
  child.unref();
}

/** The launcher for this machine, or undefined where no terminal window can be opened. */
export function findTerminal(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): TerminalLauncher | undefined {
  if (platform === 'darwin') {
    const osascript = onPath('osascript', env) ?? '/usr/bin/osascript';
    return {
      name: 'Terminal',
      // Terminal.app runs the script in its own shell, not as our child, and shows the script as
      // typed: the agent's variables (secrets among them) are not written into it.
      open: (command, cwd) => {
        const script = `cd ${JSON.stringify(cwd)} && ${shellScript(command)}`;
        launch(osascript, ['-e', `tell application "Terminal" to do script ${JSON.stringify(script)}`, '-e', 'tell application "Terminal" to activate'], cwd, env);
      },
    };
  }
  if (platform === 'win32') {
    const cmd = env.ComSpec ?? 'cmd.exe';
    return { name: 'Command Prompt', open: (command, cwd, extra = {}) => launch(cmd, ['/c', 'start', '""', cmd, '/k', command], cwd, { ...env, ...extra }) };
  }
  // Elsewhere a terminal window needs a display to open on.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  for (const c of LINUX) {
    const file = onPath(c.bin, env);
    if (file) return { name: c.bin, open: (command, cwd, extra = {}) => launch(file, c.args(shellScript(command)), cwd, { ...env, ...extra }) };
  }
  return undefined;
}
