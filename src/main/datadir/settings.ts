import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import { AppError } from '../../shared/errors';
import { Settings, type SettingsT } from '../../shared/contract';
import { DEFAULT_REGISTRY_URL } from '../../shared/registry';
import { MAX_TIMER_MS } from '../util/clock';

/** Backups of each kind kept unless the setting says otherwise. */
export const DEFAULT_BACKUPS_KEPT = 7;

export const DEFAULT_SETTINGS: SettingsT = {
  idleTimeoutMs: 30 * 60_000,
  reapIntervalMs: 60_000,
  permissionTimeoutMs: 5 * 60_000,
  defaultCwd: homedir(),
  defaultAgentId: 'demo',
  maxSessionsPerBroker: 8,
  logProtocol: false,
  backupsKept: DEFAULT_BACKUPS_KEPT,
  registryUrl: DEFAULT_REGISTRY_URL,
};

export const DURATION_KEYS = ['idleTimeoutMs', 'reapIntervalMs', 'permissionTimeoutMs'] as const;

/**
 * A duration setting from user input: a finite, non-negative number of milliseconds. Values
 * above 2^31-1 are clamped (Node's timers would otherwise fire at once). 0 disables.
 */
export function parseDuration(name: string, raw: unknown): number {
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) {
    throw new AppError('invalid_request', `${name} must be a non-negative number of milliseconds (got ${JSON.stringify(raw)})`);
  }
  return Math.min(Math.floor(n), MAX_TIMER_MS);
}

/**
 * The settings among everything the settings table holds: other keys there (a session's
 * remembered choices per agent) are not settings and never reach a window as such.
 */
export function storedSettings(all: Record<string, unknown>): Partial<SettingsT> {
  // The contract's keys, optional ones (theme, worktreeRoot) included: they have no default to list.
  return Object.fromEntries(Object.entries(all).filter(([key]) => Object.hasOwn(Settings.shape, key))) as Partial<SettingsT>;
}

/** Validates and normalises a partial settings update. */
export function normaliseSettings(patch: Partial<SettingsT>): Partial<SettingsT> {
  const out: Partial<SettingsT> = { ...patch };
  for (const key of DURATION_KEYS) if (patch[key] !== undefined) out[key] = parseDuration(key, patch[key]);
  if (patch.registryUrl !== undefined) out.registryUrl = parseRegistryUrl(patch.registryUrl);
  if (patch.worktreeRoot !== undefined) {
    const root = patch.worktreeRoot.trim();
    if (!isAbsolute(root)) throw new AppError('invalid_request', `The worktree folder must be an absolute path (got ${JSON.stringify(patch.worktreeRoot)})`);
    out.worktreeRoot = root.length > 1 ? root.replace(/[\\/]+$/, '') : root;
  }
  if (patch.maxSessionsPerBroker !== undefined && (!Number.isInteger(patch.maxSessionsPerBroker) || patch.maxSessionsPerBroker < 1)) {
    throw new AppError('invalid_request', 'maxSessionsPerBroker must be a whole number of at least 1');
  }
  if (patch.backupsKept !== undefined && (!Number.isInteger(patch.backupsKept) || patch.backupsKept < 1)) {
    throw new AppError('invalid_request', 'Backups kept must be a whole number of at least 1');
  }
  return out;
}

/** The registry's address: empty (never fetched), or an http(s) address. */
export function parseRegistryUrl(raw: string): string {
  const url = raw.trim();
  if (url === '') return '';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('invalid_request', `The registry address must be an http:// or https:// address, or empty to turn fetching off (got ${JSON.stringify(raw)})`, {
      issues: [{ path: ['registryUrl'], message: 'an http:// or https:// address, or empty' }],
    });
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new AppError('invalid_request', `The registry address must use http:// or https:// (got ${parsed.protocol})`, {
      issues: [{ path: ['registryUrl'], message: 'an http:// or https:// address, or empty' }],
    });
  }
  return url;
}
