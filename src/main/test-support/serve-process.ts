import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import type { CommandName, CommandRequest, CommandResponse, Result } from '../../shared/contract';
import { tempDir } from './temp-dir';

const CLI = resolve(import.meta.dirname, '../cli.ts');

export interface ServeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** `switchboard serve` as a real child process (from source, through tsx). */
export interface ServeProcess {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  exited: Promise<ServeExit>;
  /** Resolves with the page URL once `Switchboard ready: …` is printed; rejects if it exits first. */
  ready: Promise<URL>;
}

export function startServe(args: string[], env: NodeJS.ProcessEnv = {}): ServeProcess {
  // A stand-in for the built window: `serve` only needs an index.html to serve.
  const renderer = tempDir('switchboard-renderer-');
  writeFileSync(join(renderer.path, 'index.html'), '<!doctype html><title>Switchboard</title>');
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SWITCHBOARD_RENDERER_DIR: renderer.path, ...env },
  });
  child.once('exit', () => renderer.cleanup());
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<ServeExit>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  const ready = new Promise<URL>((resolveReady, reject) => {
    const check = (): void => {
      const match = /Switchboard ready: (\S+)/.exec(out);
      if (match) resolveReady(new URL(match[1]!));
    };
    child.stdout?.on('data', check);
    void exited.then((e) => reject(new Error(`serve exited (${e.code ?? e.signal}) before it was ready: ${err}`)));
  });
  ready.catch(() => {});
  return { child, pid: child.pid as number, stdout: () => out, stderr: () => err, exited, ready };
}

/** Runs the CLI to completion (usage errors, --help, refusals). */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeExit & { stdout: string; stderr: string }> {
  const p = startServe(args, env);
  const exit = await p.exited;
  return { ...exit, stdout: p.stdout(), stderr: p.stderr() };
}

/** Opens the headless host's WebSocket for the page URL it printed (token and origin as a tab sends them). */
export function openHostSocket(page: URL): Promise<WebSocket> {
  const token = page.searchParams.get('token') ?? '';
  const ws = new WebSocket(`ws://${page.host}/ws?token=${encodeURIComponent(token)}`, { headers: { Origin: `http://${page.host}` } });
  return new Promise((resolveOpen, reject) => {
    ws.once('open', () => resolveOpen(ws));
    ws.once('error', reject);
  });
}

interface Frame {
  type: 'response' | 'event';
  id?: number;
  result?: Result<unknown>;
  event?: string;
  payload?: unknown;
}

/** A browser tab as the headless host sees it: the contract over the WebSocket. */
export class WsClient {
  readonly events: { event: string; payload: unknown }[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, (result: Result<unknown>) => void>();
  private readonly listeners = new Set<() => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      if (frame.type === 'response' && frame.id !== undefined) {
        this.pending.get(frame.id)?.(frame.result as Result<unknown>);
        this.pending.delete(frame.id);
      } else if (frame.type === 'event') {
        this.events.push({ event: frame.event as string, payload: frame.payload });
        for (const l of this.listeners) l();
      }
    });
  }

  static async connect(page: URL): Promise<WsClient> {
    return new WsClient(await openHostSocket(page));
  }

  async call<C extends CommandName>(command: C, payload: CommandRequest<C>): Promise<CommandResponse<C>> {
    const id = this.nextId++;
    const result = await new Promise<Result<unknown>>((r) => {
      this.pending.set(id, r);
      this.ws.send(JSON.stringify({ id, command, payload }));
    });
    if (!result.ok) throw Object.assign(new Error(`${command}: ${result.error.message}`), { code: result.error.code });
    return result.value as CommandResponse<C>;
  }

  /** Calls `fn` after every event from now on; returns the unsubscribe. */
  onEvent(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Resolves once an event (past or future) matches. */
  waitFor(event: string, match: (payload: Record<string, unknown>) => boolean, timeoutMs = 20_000): Promise<unknown> {
    const find = (): { payload: unknown } | undefined =>
      this.events.find((e) => e.event === event && match(e.payload as Record<string, unknown>));
    const seen = find();
    if (seen) return Promise.resolve(seen.payload);
    return new Promise((resolveEvent, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`timed out waiting for ${event}`));
      }, timeoutMs);
      const listener = (): void => {
        const hit = find();
        if (!hit) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolveEvent(hit.payload);
      };
      this.listeners.add(listener);
    });
  }

  close(): void {
    this.ws.terminate();
  }
}
