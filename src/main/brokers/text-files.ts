import type * as acp from '@agentclientprotocol/sdk';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { acpSdk } from '../util/acp-sdk';

/** A whole-file read larger than this is refused: the agent reads it in parts (`line`, `limit`). */
export const MAX_READ_BYTES = 8 * 1024 * 1024;
/** Old and new text are kept for the transcript's diff up to this size each. */
export const MAX_DIFF_BYTES = 512 * 1024;

function tooLarge(path: string, size: number): acp.RequestError {
  return new (acpSdk().RequestError)(-32602, `${path} is ${size} bytes, more than the ${MAX_READ_BYTES} bytes read at once; read it in parts with line and limit`, {
    path,
    size,
    maxBytes: MAX_READ_BYTES,
  });
}

/** A file-system failure as the agent should see it: not found is ACP's resource-not-found. */
export function fileError(err: unknown, path: string): unknown {
  if (err instanceof acpSdk().RequestError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return acpSdk().RequestError.resourceNotFound(path);
  if (code === 'EISDIR') return new (acpSdk().RequestError)(-32602, `${path} is a folder, not a file`, { path });
  return acpSdk().RequestError.internalError({ path, code }, `${path}: ${(err as Error).message}`);
}

/**
 * The text of `path`, or of `limit` lines from the 1-based `line` on (lines as `split('\n')`
 * makes them). A range is read streaming and stops at its last line, so a part of a huge file
 * never becomes one string; a whole read over `MAX_READ_BYTES` is refused.
 */
export async function readText(path: string, line: number | null | undefined, limit: number | null | undefined): Promise<string> {
  const info = await stat(path);
  if (info.isDirectory()) throw fileError(Object.assign(new Error('folder'), { code: 'EISDIR' }), path);
  if (line == null && limit == null) {
    if (info.size > MAX_READ_BYTES) throw tooLarge(path, info.size);
    return readFile(path, 'utf8');
  }
  return readLines(path, Math.max(1, line ?? 1), limit ?? undefined);
}

async function readLines(path: string, first: number, limit: number | undefined): Promise<string> {
  const out: string[] = [];
  if (limit === 0) return '';
  let kept = 0;
  let seen = 0;
  let carry = '';
  // Returns false once the range is complete.
  const take = (text: string): boolean => {
    seen++;
    if (seen < first) return true;
    out.push(text);
    kept += text.length + 1;
    if (kept > MAX_READ_BYTES) throw tooLarge(`${path} (lines ${first}–${seen})`, kept);
    return limit === undefined || out.length < limit;
  };
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 64 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const parts = (carry + chunk).split('\n');
      carry = parts.pop() ?? '';
      for (const part of parts) if (!take(part)) return out.join('\n');
      // A line before the range is dropped as it streams: only the count matters.
      if (seen + 1 < first) carry = '';
      else if (carry.length > MAX_READ_BYTES) throw tooLarge(`${path} (line ${seen + 1})`, carry.length);
    }
    take(carry);
    return out.join('\n');
  } finally {
    stream.destroy();
  }
}

export interface WriteResult {
  /** False: the file did not exist before. */
  existed: boolean;
  /** The old text, when it existed and was small enough to keep for a diff. */
  previous: string | undefined;
  previousSize: number;
}

/**
 * Replaces `path` with `content` atomically: written to a temp file in the same folder (so the
 * rename stays on one file system), synced, given the old file's mode, then renamed over it. A
 * reader sees the old file or the new one, never half of either; a failure leaves no temp file.
 */
export async function writeAtomically(path: string, content: string): Promise<WriteResult> {
  let mode: number | undefined;
  let previous: string | undefined;
  let previousSize = 0;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw fileError(Object.assign(new Error('folder'), { code: 'EISDIR' }), path);
    mode = info.mode & 0o7777;
    previousSize = info.size;
    if (info.size <= MAX_DIFF_BYTES) previous = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const folder = dirname(path);
  await mkdir(folder, { recursive: true });
  const temp = join(folder, `.${basename(path)}.${randomBytes(6).toString('hex')}.switchboard-tmp`);
  try {
    const file = await open(temp, 'wx', mode ?? 0o666);
    try {
      await file.writeFile(content, 'utf8');
      // The umask narrowed the mode `open` was given; the old file's mode is kept exactly.
      if (mode !== undefined) await file.chmod(mode);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await syncFolder(folder);
  return { existed: mode !== undefined, previous, previousSize };
}

/** Makes the rename itself durable; not every platform can open a folder, which is fine. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows cannot fsync a folder; the rename is still atomic.
  }
}
