/**
 * The folders of New session: whether a typed folder can be a session's folder (checked as the
 * person types, and again when the session is created), the recent folders, and the native
 * folder picker, which is a port the Electron app gives the host (the host never imports
 * Electron; a headless host has none).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { FolderCheckT } from '../../shared/contract';
import { AppError } from '../../shared/errors';

/** Shows the system's folder chooser; resolves with the chosen folder, or undefined if cancelled. */
export interface FolderPicker {
  pick(): Promise<string | undefined>;
}

export interface FolderCheckOptions {
  /** What `~` stands for (default: this user's home). */
  home?: string;
  /**
   * Throws when the folder cannot be listed and entered (default `fs.accessSync` with R_OK |
   * X_OK). Tests give their own: as root, every real folder is readable.
   */
  access?: (path: string) => void;
}

type Problem = Extract<FolderCheckT, { ok: false }>['problem'];
const fail = (problem: Problem, message: string): FolderCheckT => ({ ok: false, problem, message });

/** `~` and `~/…` (or `~\…`) are the home folder; anything else is left as typed. */
function expandHome(typed: string, home: string): string {
  if (typed === '~') return home;
  if (typed.startsWith('~/') || typed.startsWith('~\\')) return join(home, typed.slice(2));
  return typed;
}

/** Whether `input` names a folder a session can work in; never throws. */
export function checkFolder(input: string, o: FolderCheckOptions = {}): FolderCheckT {
  const home = o.home ?? homedir();
  const typed = input.trim();
  if (!typed) return fail('empty', 'Choose the folder the agent works in.');
  const expanded = expandHome(typed, home);
  // A relative path would be resolved against the host's own working folder: never what was meant.
  if (!isAbsolute(expanded)) return fail('relative', `Give the whole path of the folder, e.g. ${join(home, typed)}`);
  const path = resolve(expanded);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return fail('unreadable', `Switchboard may not open ${path}.`);
    return fail('missing', `There is no folder ${path}.`);
  }
  if (!isDirectory) return fail('not_directory', `${path} is a file, not a folder.`);
  try {
    (o.access ?? ((p: string) => accessSync(p, constants.R_OK | constants.X_OK)))(path);
  } catch {
    return fail('unreadable', `Switchboard may not read the folder ${path}.`);
  }
  return { ok: true, path };
}

/** The checked folder, or an `invalid_request` saying what is wrong with it (`what`: which folder). */
export function requireFolder(input: string, what = 'The working folder', o?: FolderCheckOptions): string {
  const checked = checkFolder(input, o);
  if (!checked.ok) throw new AppError('invalid_request', `${what}: ${checked.message}`);
  return checked.path;
}

/**
 * A session's additional folders: each checked like its folder, duplicates and the session's
 * own folder dropped (the agent gets each root once), order kept.
 */
export function requireAdditionalDirs(dirs: readonly string[], cwd: string, o?: FolderCheckOptions): string[] {
  const out: string[] = [];
  for (const dir of dirs) {
    const path = requireFolder(dir, 'An additional folder', o);
    if (path !== cwd && !out.includes(path)) out.push(path);
  }
  return out;
}

/** `folders:pick`: the picker's answer, or `unsupported` where the host has no picker. */
export async function pickFolder(picker: FolderPicker | undefined): Promise<{ cancelled: true } | { cancelled: false; path: string }> {
  if (!picker) throw new AppError('unsupported', 'This Switchboard runs without a window of its own, so it cannot show a folder picker: type the folder.');
  const path = await picker.pick();
  return path === undefined ? { cancelled: true } : { cancelled: false, path };
}
