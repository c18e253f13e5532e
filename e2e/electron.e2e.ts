/**
 * The desktop app end to end, under Playwright's `_electron`: the real main process, preload
 * and renderer, the real host with its SQLite file in a temp data dir, the demo agent.
 *
 * Where the Electron binary is not installed the file skips; the same user flows run against
 * the headless host in Chromium (the other e2e specs).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { commandNames } from '../src/shared/contract';
import { messageBox, newSession, send, sidebar, transcript } from './support/fixtures';

const root = resolve(import.meta.dirname, '..');

/** Same answer as `require('electron')` without its side effect (a foreground download). */
function electronRuntime(): { installed: true } | { installed: false; reason: string } {
  const dir = join(root, 'node_modules', 'electron');
  if (!existsSync(join(dir, 'package.json'))) return { installed: false, reason: 'the electron package is not installed' };
  let executable: string;
  try {
    executable = readFileSync(join(dir, 'path.txt'), 'utf8');
  } catch {
    return { installed: false, reason: 'its binary was never downloaded: node_modules/electron/path.txt is missing' };
  }
  const binary = join(dir, 'dist', executable);
  return existsSync(binary) ? { installed: true } : { installed: false, reason: `${binary} is missing` };
}

const runtime = electronRuntime();
test.skip(
  !runtime.installed,
  `Electron runtime is not installed on this machine (${runtime.installed ? '' : runtime.reason}); ` +
    'the same flows run against the headless host in Chromium',
);

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
  // Fresh out/ and the Electron-ABI better-sqlite3; both are no-ops when already up to date.
  test.setTimeout(10 * 60_000);
  for (const script of ['scripts/ensure-built.mjs', 'scripts/electron-native.mjs']) {
    const result = spawnSync(process.execPath, [script], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`${script} failed (exit ${result.status})`);
  }
});

let app: ElectronApplication;
let dataDir: string;

/** The app on the test's data dir (a second launch is a restart). */
function launch(): Promise<ElectronApplication> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== 'ELECTRON_RUN_AS_NODE') env[key] = value;
  }
  env.SWITCHBOARD_DATA_DIR = dataDir;
  return electron.launch({ args: ['.'], cwd: root, env });
}

test.beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-electron-e2e-'));
  app = await launch();
});

test.afterEach(async () => {
  if (app.process().exitCode === null && app.process().signalCode === null) await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function quit(electronApp: ElectronApplication): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const child = electronApp.process();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    if (child.exitCode !== null || child.signalCode !== null) resolveExit({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolveExit({ code, signal }));
  });
  // The app may exit before the evaluate call is answered; the exit is what counts.
  await electronApp.evaluate(({ app: electronMain }) => electronMain.quit()).catch(() => undefined);
  return exited;
}

/** Demo agent processes started by the app (their command line names `demo-agent`). */
function demoAgentsOf(appPid: number): number[] {
  if (process.platform === 'win32') return [];
  const rows = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] ?? '' }));
  const tree = new Set([appPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (!tree.has(row.pid) && tree.has(row.ppid)) {
        tree.add(row.pid);
        grew = true;
      }
    }
  }
  return rows.filter((row) => tree.has(row.pid) && row.args.includes('demo-agent')).map((row) => row.pid);
}

function alive(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}

/** The first window, ready for input (the same readiness the browser specs wait for). */
async function firstWindow(electronApp: ElectronApplication): Promise<Page> {
  const page = await electronApp.firstWindow();
  await expect(page).toHaveTitle('Switchboard');
  await expect(page.getByRole('button', { name: 'New session' })).toBeEnabled();
  return page;
}

async function echo(page: Page, text: string): Promise<void> {
  await send(page, text);
  await expect(transcript(page)).toContainText(`Echo: ${text}`);
}

test('runs a session in a window, opens a second window and quits without leaving agents', async () => {
  const page = await firstWindow(app);
  await newSession(page);
  await echo(page, 'hello');

  const agents = demoAgentsOf(app.process().pid ?? -1);
  if (process.platform !== 'win32') expect(agents.length).toBeGreaterThan(0);

  // File › New Window, through the real menu item.
  const nextWindow = app.waitForEvent('window');
  await app.evaluate(({ Menu }) => {
    const item = Menu.getApplicationMenu()?.getMenuItemById('new-window');
    if (!item) throw new Error('no New Window menu item');
    item.click();
  });
  const second = await nextWindow;
  await expect(second.getByRole('button', { name: 'New session' })).toBeEnabled();
  expect(app.windows()).toHaveLength(2);

  // Same host: the new window lists the first window's session and runs one of its own.
  await expect(sidebar(second).getByRole('link', { name: /hello/ })).toBeVisible();
  await newSession(second);
  await echo(second, 'from window two');
  await expect(transcript(page)).toContainText('Echo: hello');
  await expect(messageBox(page)).toBeEnabled();

  expect(await quit(app)).toEqual({ code: 0, signal: null });
  await expect.poll(() => alive(agents), { message: 'demo agents left running after quit' }).toEqual([]);
});

test('keeps the renderer sandboxed and exposes exactly the contract', async () => {
  const page = await firstWindow(app);

  // Context isolation, no Node integration: the page sees window.api and nothing of Node.
  const exposed = await page.evaluate(() => ({
    require: typeof (window as unknown as { require?: unknown }).require,
    process: typeof (window as unknown as { process?: unknown }).process,
    api: Object.keys((window as unknown as { api: object }).api).sort(),
  }));
  expect(exposed).toEqual({ require: 'undefined', process: 'undefined', api: [...commandNames, 'on', 'onReconnect'].sort() });

  // window.open is denied (an http(s) URL would go to the system browser instead).
  expect(await page.evaluate(() => window.open('about:blank') === null)).toBe(true);
  expect(app.windows()).toHaveLength(1);
});

test('a reloaded window gets a fresh host client and keeps working', async () => {
  const page = await firstWindow(app);
  await newSession(page);
  await echo(page, 'before reload');

  await page.reload();
  await expect(page.getByRole('button', { name: 'New session' })).toBeEnabled();
  await expect(sidebar(page).getByRole('link', { name: /before reload/ })).toBeVisible();
  await newSession(page);
  await echo(page, 'after reload');

  expect(await quit(app)).toEqual({ code: 0, signal: null });
});

test('windows come back after a restart with their size and their session', async () => {
  const page = await firstWindow(app);
  await newSession(page);
  await echo(page, 'remember me');
  await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.setBounds({ x: 40, y: 50, width: 900, height: 700 }));
  const shown = new URL(page.url()).hash;
  expect(await quit(app)).toEqual({ code: 0, signal: null });
  expect(existsSync(join(dataDir, 'windows.json'))).toBe(true);

  app = await launch();
  const again = await firstWindow(app);
  const bounds = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.getBounds());
  expect(bounds).toMatchObject({ width: 900, height: 700 });
  expect(new URL(again.url()).hash).toBe(shown);
  await expect(transcript(again)).toContainText('Echo: remember me');
});

test('a page that crashes is reloaded and its session runs on', async () => {
  const page = await firstWindow(app);
  // The crash report is a message box; answer it at once so nothing waits on a person.
  await app.evaluate(({ dialog }) => {
    dialog.showMessageBox = (() => Promise.resolve({ response: 0, checkboxChecked: false })) as typeof dialog.showMessageBox;
  });
  await newSession(page);
  await echo(page, 'before the crash');

  await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.webContents.forcefullyCrashRenderer());
  await expect
    .poll(() => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.webContents.isCrashed() === false), {
      message: 'the crashed page is reloaded',
    })
    .toBe(true);
  const reloaded = await firstWindow(app);
  await expect(sidebar(reloaded).getByRole('link', { name: /before the crash/ })).toBeVisible();
  expect(await quit(app)).toEqual({ code: 0, signal: null });
});

test('a session has one window: asking again brings it forward, and a switch moves the session out', async () => {
  const page = await firstWindow(app);
  const openWindow = (target: Page, sessionId: string) =>
    target.evaluate(
      (id) => (window as unknown as { api: { 'windows:open'(payload: { sessionId: string }): Promise<{ ok: boolean }> } }).api['windows:open']({ sessionId: id }),
      sessionId,
    );
  await newSession(page);
  await echo(page, 'first');
  const first = new URL(page.url()).hash.replace('#/session/', '');

  // The session is on screen already: no second window.
  expect(await openWindow(page, first)).toMatchObject({ ok: true });
  expect(app.windows()).toHaveLength(1);

  // The window switches to another session; the first one now gets a window of its own, once.
  await newSession(page);
  await expect.poll(() => new URL(page.url()).hash).not.toBe(`#/session/${first}`);
  const nextWindow = app.waitForEvent('window');
  expect(await openWindow(page, first)).toMatchObject({ ok: true });
  const second = await nextWindow;
  await expect(transcript(second)).toContainText('Echo: first');
  expect(await openWindow(page, first)).toMatchObject({ ok: true });
  expect(app.windows()).toHaveLength(2);
  expect(await quit(app)).toEqual({ code: 0, signal: null });
});
