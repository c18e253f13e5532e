import { AppError } from '../../../shared/errors';
import { VERSION } from '../../../shared/version';
import type { Clock } from '../../util/clock';

export interface GetOptions {
  clock: Clock;
  /** Aborts when no byte arrives for this long: before the answer, or between two chunks. */
  idleTimeoutMs: number;
  /** Aborts when the whole transfer takes longer (a trickle that keeps the idle timer alive). */
  totalTimeoutMs?: number;
  /** Refuses a body larger than this, before reading it when the server says its length. */
  maxBytes: number;
  headers?: Record<string, string>;
  /** After each chunk: bytes so far and the announced length. */
  onProgress?(bytes: number, total: number | undefined): void;
  /** The caller gave up (the person cancelled, the host is quitting). */
  signal?: AbortSignal;
}

export interface GetResult {
  status: number;
  /** The address answered after redirects. */
  url: string;
  headers: Headers;
  bytes: number;
}

const MAX_REDIRECTS = 5;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether Switchboard fetches from `url`: https anywhere; plain http only from this machine
 * (a registry or mirror served locally, and the tests' stand-in server). A redirect is held to
 * the same rule, so an https download can't be downgraded on the way.
 */
export function fetchableUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const u = new URL(url);
  return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname));
}

/**
 * GET `url`, streaming the body to `sink` chunk by chunk (to a file, through a hash), with an
 * idle timeout, a total timeout and a size cap, all on the given clock. 304 is an answer (the
 * caller sent a validator); any other non-2xx status, a network failure or a timeout is
 * `download_failed`; a body past the cap, or an address outside `fetchableUrl`, is
 * `download_refused`. Redirects are followed by hand (at most 5), each one checked.
 */
export async function httpGet(url: string, o: GetOptions, sink: (chunk: Uint8Array) => Promise<void> | void): Promise<GetResult> {
  const abort = new AbortController();
  let reason: AppError | undefined;
  const stop = (err: AppError) => {
    reason ??= err;
    abort.abort(err);
  };
  let idle = o.clock.setTimeout(() => stop(new AppError('download_failed', `${hostOf(url)} sent nothing for ${seconds(o.idleTimeoutMs)}`)), o.idleTimeoutMs);
  const resetIdle = () => {
    o.clock.clearTimeout(idle);
    idle = o.clock.setTimeout(() => stop(new AppError('download_failed', `${hostOf(url)} sent nothing for ${seconds(o.idleTimeoutMs)}`)), o.idleTimeoutMs);
  };
  const total =
    o.totalTimeoutMs === undefined
      ? undefined
      : o.clock.setTimeout(() => stop(new AppError('download_failed', `${hostOf(url)} took longer than ${seconds(o.totalTimeoutMs!)}`)), o.totalTimeoutMs);
  const onCallerAbort = () => stop(new AppError('download_failed', 'the download was cancelled'));
  if (o.signal?.aborted) onCallerAbort();
  o.signal?.addEventListener('abort', onCallerAbort);
  try {
    let at = url;
    for (let hop = 0; ; hop++) {
      if (!fetchableUrl(at)) throw new AppError('download_refused', `refused to download from ${at}: only https (or http on this machine)`);
      const res = await fetch(at, {
        redirect: 'manual',
        signal: abort.signal,
        headers: { 'user-agent': `Switchboard/${VERSION}`, ...o.headers },
      });
      resetIdle();
      if (res.status >= 300 && res.status < 400 && res.status !== 304) {
        await res.body?.cancel();
        const location = res.headers.get('location');
        if (!location) throw new AppError('download_failed', `${hostOf(at)} answered ${res.status} with no address`);
        if (hop >= MAX_REDIRECTS) throw new AppError('download_failed', `${hostOf(url)} redirected more than ${MAX_REDIRECTS} times`);
        at = new URL(location, at).toString();
        continue;
      }
      if (res.status === 304) {
        await res.body?.cancel();
        return { status: 304, url: at, headers: res.headers, bytes: 0 };
      }
      if (res.status < 200 || res.status >= 300) {
        await res.body?.cancel();
        throw new AppError('download_failed', `${hostOf(at)} answered ${res.status} ${res.statusText}`.trim());
      }
      const announced = Number(res.headers.get('content-length') ?? NaN);
      const length = Number.isSafeInteger(announced) && announced >= 0 ? announced : undefined;
      if (length !== undefined && length > o.maxBytes) {
        await res.body?.cancel();
        throw new AppError('download_refused', `${hostOf(at)} offers ${mib(length)}, over the ${mib(o.maxBytes)} limit`);
      }
      let bytes = 0;
      if (res.body) {
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          resetIdle();
          bytes += value.byteLength;
          if (bytes > o.maxBytes) {
            await reader.cancel();
            throw new AppError('download_refused', `${hostOf(at)} sent more than the ${mib(o.maxBytes)} limit`);
          }
          await sink(value);
          o.onProgress?.(bytes, length);
        }
      }
      return { status: res.status, url: at, headers: res.headers, bytes };
    }
  } catch (err) {
    if (reason) throw reason;
    if (err instanceof AppError) throw err;
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new AppError('download_failed', `could not reach ${hostOf(url)}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  } finally {
    o.clock.clearTimeout(idle);
    if (total) o.clock.clearTimeout(total);
    o.signal?.removeEventListener('abort', onCallerAbort);
  }
}

/** The whole body in memory (an index, not a download): `httpGet` with a collecting sink. */
export async function httpGetBuffer(url: string, o: GetOptions): Promise<GetResult & { body: Buffer }> {
  const chunks: Uint8Array[] = [];
  const result = await httpGet(url, o, (c) => {
    chunks.push(c);
  });
  return { ...result, body: Buffer.concat(chunks) };
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : url;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

export function mib(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}
