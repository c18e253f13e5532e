import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

/**
 * Replaces `file` with `text` so that a reader (or a crash at any moment) sees the old content
 * or the new one, never half: a temporary file beside it, created with `mode` from the start
 * (never readable by others in between), flushed to disk, then renamed over the target.
 */
export function writeFileAtomicSync(file: string, text: string, mode = 0o644): void {
  const tmp = `${file}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  const fd = openSync(tmp, 'wx', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}
