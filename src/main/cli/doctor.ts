/**
 * `switchboard doctor [--data-dir DIR]`: checks what Switchboard needs and says what is wrong
 * and how to fix it. The data folder and its database (`datadir/doctor-checks.ts`), every
 * configured agent (its command on PATH, then a real `initialize` through the host's own agent
 * test, in a throwaway host with a temp data folder so nothing of the real one is written),
 * the sessions waiting for a sign-in, `git`, and a Chromium for headless use.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AgentTestResultT } from '../../shared/catalogue';
import { isAppError } from '../../shared/errors';
import {
  checkBackups,
  checkDatabase,
  checkDataFolder,
  configuredAgents,
  type DataFolderFiles,
  type DoctorCheck,
  type LockProbe,
} from '../datadir/doctor-checks';
import { backupsFolder } from '../datadir/backups';
import { findOnPath, type DetectionEnv } from '../catalogue/agent-detection';
import { loadAgentsFile } from '../catalogue/agents-file';
import { DataDirLock } from '../datadir/data-dir-lock';
import { dataPaths } from '../datadir/paths';
import { plainBox, SecretStore } from '../catalogue/secret-box';
import { SessionHost } from '../host/session-host';
import { silentLogger } from '../util/log';

export type { DoctorCheck } from '../datadir/doctor-checks';

export interface DoctorOptions {
  dataDir: string;
  /** Where commands are looked for (PATH) and which Chromium is named; default: this process's. */
  env?: NodeJS.ProcessEnv;
  /** How long an agent may take to answer `initialize` (default 20 s). */
  agentTimeoutMs?: number;
  now?: number;
}

/** The lock's holder, by trying to take it (and giving it back at once). */
const probeLock: LockProbe = (lockFile) => {
  try {
    DataDirLock.acquire(lockFile).dispose();
    return { held: false };
  } catch (err) {
    if (isAppError(err) && err.code === 'already_exists') return { held: true, pid: err.details?.pid, message: err.message };
    throw err;
  }
};

interface AgentToCheck {
  id: string;
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Secrets it has but this process cannot open (sealed by the desktop app's keychain). */
  sealed: string[];
}

/** The agents of the data folder: Settings rows and agents.json entries, with their secrets. */
function agentsToCheck(paths: ReturnType<typeof dataPaths>, checks: DoctorCheck[]): { agents: AgentToCheck[]; waiting: Record<string, number> } {
  const { agents: rows, waitingForSignIn } = configuredAgents(paths.database);
  const file = loadAgentsFile(paths.agents, silentLogger);
  if (file.error) checks.push({ area: 'agents', status: 'problem', detail: `agents.json cannot be read: ${file.error}`, fix: `Fix ${paths.agents} (JSON: a list of {id, name, command, args, env}).` });
  const secrets = existsSync(paths.secrets) ? new SecretStore(paths.secrets, plainBox, silentLogger) : undefined;
  const byId = new Map<string, AgentToCheck>();
  const add = (a: { id: string; name: string; command: string; args: string[]; env: Record<string, string> }, secretNames: string[]): void => {
    const opened = secrets?.values(a.id) ?? {};
    byId.set(a.id, { ...a, env: { ...a.env, ...opened }, sealed: secretNames.filter((n) => !Object.hasOwn(opened, n)) });
  };
  // The file is the owner of its agents: its current entries, not the rows last imported.
  for (const row of rows) if (row.source === 'user') add(row, row.secretNames);
  for (const a of file.agents) if (!byId.has(a.id) && a.id !== 'demo') add(a, secrets?.names(a.id) ?? []);
  return { agents: [...byId.values()], waiting: waitingForSignIn };
}

function describeTest(name: string, r: Extract<AgentTestResultT, { ok: true }>): string {
  const who = [r.agentTitle ?? r.agentName, r.agentVersion].filter(Boolean).join(' ');
  const signIn = r.authMethods.length ? `; offers sign-in by ${r.authMethods.map((m) => m.name).join(', ')}` : '';
  return `${name}: answers initialize in ${Math.round(r.durationMs)} ms${who ? ` (${who})` : ''}, protocol ${r.protocolVersion}${signIn}`;
}

/** Starts each agent the way a session would and waits for its `initialize` answer. */
async function testAgents(agents: AgentToCheck[], o: DoctorOptions): Promise<Map<string, AgentTestResultT>> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-doctor-'));
  const results = new Map<string, AgentTestResultT>();
  let host: SessionHost | undefined;
  try {
    host = await SessionHost.start({
      dataDir: dir,
      headless: true,
      log: silentLogger,
      agents: agents.map(({ id, name, command, args, env }) => ({ id, name, command, args, env })),
      agentTestTimeoutMs: o.agentTimeoutMs ?? 20_000,
      ...(o.env ? { detectionEnv: o.env } : {}),
    });
    const client = host.connect({ label: 'doctor', send: () => {} });
    for (const id of ['demo', ...agents.map((a) => a.id)]) {
      const answer = await host.dispatch(client.id, 'agents:test', { agentId: id });
      if (answer.ok) results.set(id, answer.value as AgentTestResultT);
      else results.set(id, { ok: false, at: 0, durationMs: 0, message: answer.error.message, stderrTail: [] });
    }
    client.dispose();
  } finally {
    await host?.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

async function checkAgents(paths: ReturnType<typeof dataPaths>, o: DoctorOptions): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const { agents, waiting } = agentsToCheck(paths, checks);
  const env = (o.env ?? process.env) as DetectionEnv;
  const found: AgentToCheck[] = [];
  for (const a of agents) {
    if (await findOnPath(a.command, env)) found.push(a);
    else {
      checks.push({
        area: 'agents',
        status: 'problem',
        detail: `${a.name}: its command \`${a.command}\` is not found on PATH`,
        fix: `Install ${a.name} (or put \`${a.command}\` on PATH), or change its command in Settings → Agents.`,
      });
    }
  }
  const results = await testAgents(found, o);
  for (const a of [{ id: 'demo', name: 'Demo agent', command: 'the demo agent', args: [], sealed: [] as string[] }, ...found]) {
    const r = results.get(a.id);
    if (!r) continue;
    if (r.ok) checks.push({ area: 'agents', status: 'ok', detail: describeTest(a.name, r) });
    else {
      const tail = r.stderrTail.length ? `; its last words: ${r.stderrTail.slice(-3).join(' | ')}` : '';
      checks.push({
        area: 'agents',
        status: 'problem',
        detail: `${a.name}: did not start (${r.message})${tail}`,
        fix: `Run \`${[a.command, ...a.args].join(' ')}\` in a terminal to see why, then fix its command or install in Settings → Agents.`,
      });
    }
    if (a.sealed.length) {
      checks.push({
        area: 'agents',
        status: 'note',
        detail: `${a.name}: tested without ${a.sealed.join(', ')} (kept sealed by the desktop app's keychain)`,
      });
    }
  }
  for (const [id, n] of Object.entries(waiting)) {
    const name = agents.find((a) => a.id === id)?.name ?? (id === 'demo' ? 'Demo agent' : id);
    checks.push({
      area: 'agents',
      status: 'problem',
      detail: `${name}: ${n} session${n === 1 ? ' waits' : 's wait'} for you to sign in`,
      fix: `Open ${n === 1 ? 'it' : 'one of them'} in Switchboard and use Sign in (or Settings → Agents → Sign in).`,
    });
  }
  return checks;
}

async function checkGit(env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  try {
    const { stdout } = await promisify(execFile)('git', ['--version'], { env: { ...env, LC_ALL: 'C' }, timeout: 10_000 });
    return { area: 'git', status: 'ok', detail: stdout.trim() };
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      area: 'git',
      status: 'problem',
      detail: missing ? 'git is not installed (not found on PATH)' : `git --version failed: ${(err as Error).message}`,
      fix: 'Install git (https://git-scm.com, or your system\'s package manager): Switchboard uses it for worktrees and checkpoints.',
    };
  }
}

/** A Chromium for driving the window headless (`serve` in a browser is any browser; e2e tests need this one). */
async function checkBrowser(env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  const named = env.SWITCHBOARD_CHROMIUM;
  if (named) {
    return existsSync(named)
      ? { area: 'browser', status: 'ok', detail: `Chromium at ${named} (SWITCHBOARD_CHROMIUM)` }
      : { area: 'browser', status: 'problem', detail: `SWITCHBOARD_CHROMIUM names ${named}, which does not exist`, fix: 'Point SWITCHBOARD_CHROMIUM at a Chromium binary, or unset it.' };
  }
  for (const file of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) if (existsSync(file)) return { area: 'browser', status: 'ok', detail: `Chromium at ${file}` };
  for (const command of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
    const found = await findOnPath(command, env as DetectionEnv);
    if (found) return { area: 'browser', status: 'ok', detail: `Chromium at ${found}` };
  }
  return {
    area: 'browser',
    status: 'note',
    detail: 'no Chromium found (needed only to drive the window headless: the end-to-end tests, screenshots)',
    fix: 'Install one (Debian: apt-get install chromium), or set SWITCHBOARD_CHROMIUM to its path.',
  };
}

/** Every check, in the order they are printed. */
export async function runDoctor(o: DoctorOptions): Promise<DoctorCheck[]> {
  const env = o.env ?? process.env;
  const paths = dataPaths(o.dataDir);
  const files: DataFolderFiles = { dataDir: o.dataDir, database: paths.database, lock: paths.lock, backups: backupsFolder(o.dataDir) };
  const checks = [...checkDataFolder(files, probeLock)];
  if (existsSync(o.dataDir)) checks.push(...checkDatabase(files), ...checkBackups(files, o.now ?? Date.now()));
  checks.push(...(await checkAgents(paths, o)), await checkGit(env), await checkBrowser(env));
  return checks;
}

const LABEL: Record<DoctorCheck['status'], string> = { ok: 'ok', problem: 'PROBLEM', note: 'note' };

/** The report as printed; ends with the count of problems. */
export function formatDoctor(dataDir: string, checks: readonly DoctorCheck[]): string {
  const lines = [`Switchboard doctor: data folder ${dataDir}`, ''];
  for (const c of checks) {
    lines.push(`${LABEL[c.status].padEnd(8)} ${c.area.padEnd(12)} ${c.detail}`);
    if (c.fix && c.status !== 'ok') lines.push(`${''.padEnd(21)} fix: ${c.fix}`);
  }
  const problems = checks.filter((c) => c.status === 'problem').length;
  lines.push('', problems === 0 ? 'No problems found.' : `${problems} problem${problems === 1 ? '' : 's'} found.`);
  return `${lines.join('\n')}\n`;
}
