/**
 * `session/fork` (unstable in ACP; the SDK 2.4 names it only in its `unstable` entry, so its
 * parameters are checked here): a new session with the history of another, whole or up to a
 * point. ACP's fork has no "up to" parameter; the demo takes `_meta.upToPrompt` (N: keep the
 * first N prompts and what the agent sent for them), which is how a client's "edit and resend"
 * of the (N+1)-th prompt is tested. Without it the whole history is copied, as agents do.
 */
import { randomUUID } from 'node:crypto';
import { isAbsolute } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { HistoryEntry, HistoryStore, SessionMeta } from './history-store';

export const FORK_METHOD = 'session/fork';
/** The `_meta` key of the demo's fork point. */
export const FORK_AT_META = 'upToPrompt';

export type ForkParams = { sessionId: string; cwd: string; additionalDirectories?: string[]; mcpServers: McpServer[]; upToPrompt?: number };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const forkParams = {
  parse(raw: unknown): ForkParams {
    const p = isObj(raw) ? raw : {};
    const bad = (message: string): never => {
      throw acp.RequestError.invalidParams(raw, `session/fork: ${message}`);
    };
    if (typeof p.sessionId !== 'string') bad('needs sessionId');
    if (typeof p.cwd !== 'string' || !isAbsolute(p.cwd)) bad('needs an absolute cwd');
    const dirs = p.additionalDirectories;
    if (dirs !== undefined && dirs !== null && (!Array.isArray(dirs) || !dirs.every((d) => typeof d === 'string'))) bad('additionalDirectories must be a list of paths');
    const servers = p.mcpServers ?? [];
    if (!Array.isArray(servers) || !servers.every((s) => isObj(s) && typeof s.name === 'string')) bad('mcpServers must be a list of servers');
    const at = isObj(p._meta) ? p._meta[FORK_AT_META] : undefined;
    if (at !== undefined && (typeof at !== 'number' || !Number.isInteger(at) || at < 0)) bad(`_meta.${FORK_AT_META} must be a whole number of prompts`);
    return {
      sessionId: p.sessionId as string,
      cwd: p.cwd as string,
      ...(Array.isArray(dirs) ? { additionalDirectories: dirs as string[] } : {}),
      mcpServers: servers as McpServer[],
      ...(at === undefined ? {} : { upToPrompt: at as number }),
    };
  },
};

/** The entries before the prompt numbered `upTo` (0-based), or all of them. */
export function historyUpTo(entries: readonly HistoryEntry[], upTo: number | undefined): { entries: HistoryEntry[]; prompts: number } {
  let prompts = 0;
  const kept: HistoryEntry[] = [];
  for (const entry of entries) {
    if (entry.kind === 'prompt') {
      if (upTo !== undefined && prompts === upTo) break;
      prompts++;
    }
    kept.push(entry);
  }
  return { entries: kept, prompts };
}

/** Writes the fork's files: its own id and meta, the source's history up to the point. */
export function forkHistory(store: HistoryStore, source: SessionMeta, params: ForkParams, now: string): SessionMeta {
  const { entries, prompts } = historyUpTo(store.readEntries(source.sessionId), params.upToPrompt);
  const meta: SessionMeta = {
    sessionId: randomUUID(),
    cwd: params.cwd,
    title: source.title,
    createdAt: now,
    updatedAt: now,
    promptCount: prompts,
    ...(params.additionalDirectories?.length ? { additionalDirectories: params.additionalDirectories } : {}),
    forkedFrom: { sessionId: source.sessionId, prompts },
  };
  store.create(meta);
  store.append(meta.sessionId, entries);
  return meta;
}
