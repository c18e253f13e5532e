import * as acp from '@agentclientprotocol/sdk';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventBody } from '../../shared/contract';
import { tempDir } from '../test-support/temp-dir';
import { clientCapabilities, type RequestScope } from './client-handlers';
import { PATH_REFUSED_CODE } from './confine';
import { configOptionHandlers } from './config-options';
import { fsHandlers } from './fs-handlers';
import { MAX_DIFF_BYTES, MAX_READ_BYTES } from './text-files';

const posixOnly = process.platform === 'win32' ? it.skip : it; // symlinks and modes need POSIX (Windows needs privileges for links)

/** Runs `op` as an in-process agent talking to a client that has only the fs handlers. */
function asAgent<T>(scopes: Record<string, RequestScope>, op: (ctx: acp.AgentContext) => Promise<T>): Promise<T> {
  const handlers = fsHandlers((id) => scopes[id]);
  const client = handlers.register(acp.client({ name: 'test-client' }));
  return acp.agent({ name: 'test-agent' }).connectWith(client, op);
}

async function refusal(p: Promise<unknown>): Promise<acp.RequestError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(acp.RequestError);
  return err as acp.RequestError;
}

describe('fs/* client request handlers', () => {
  let dir: ReturnType<typeof tempDir>;
  let cwd: string;
  let recorded: EventBody[];
  let scope: RequestScope;
  const read = (ctx: acp.AgentContext, path: string, extra: { line?: number; limit?: number } = {}) =>
    ctx.request(acp.methods.client.fs.readTextFile, { sessionId: 's1', path, ...extra });
  const write = (ctx: acp.AgentContext, path: string, content: string) =>
    ctx.request(acp.methods.client.fs.writeTextFile, { sessionId: 's1', path, content });

  beforeEach(() => {
    dir = tempDir();
    cwd = join(dir.path, 'work');
    mkdirSync(cwd);
    recorded = [];
    scope = { cwd, record: (e) => recorded.push(e) };
  });
  afterEach(() => dir.cleanup());

  it('reads a file in the session folder, whole or by line range', async () => {
    writeFileSync(join(cwd, 'a.txt'), 'one\ntwo\nthree\nfour');
    await asAgent({ s1: scope }, async (ctx) => {
      expect(await read(ctx, 'a.txt')).toEqual({ content: 'one\ntwo\nthree\nfour' });
      expect(await read(ctx, join(cwd, 'a.txt'), { line: 2, limit: 2 })).toEqual({ content: 'two\nthree' });
      expect(await read(ctx, 'a.txt', { line: 3 })).toEqual({ content: 'three\nfour' });
      expect(await read(ctx, 'a.txt', { limit: 1 })).toEqual({ content: 'one' });
      expect(await read(ctx, 'a.txt', { line: 9 })).toEqual({ content: '' });
    });
  });

  it('allows names that start with dots, including ..foo', async () => {
    writeFileSync(join(cwd, '..foo'), 'dots');
    writeFileSync(join(cwd, '.env'), 'hidden');
    await asAgent({ s1: scope }, async (ctx) => {
      expect(await read(ctx, '..foo')).toEqual({ content: 'dots' });
      expect(await read(ctx, join(cwd, '..foo'))).toEqual({ content: 'dots' });
      expect(await read(ctx, '.env')).toEqual({ content: 'hidden' });
      await write(ctx, '...bar', 'three dots');
    });
    expect(readFileSync(join(cwd, '...bar'), 'utf8')).toBe('three dots');
    expect(recorded.filter((e) => e.kind === 'notice')).toEqual([]);
  });

  it('refuses .. and absolute paths elsewhere with invalid params naming the path, and says so in the transcript', async () => {
    writeFileSync(join(dir.path, 'secret.txt'), 'no');
    await asAgent({ s1: scope }, async (ctx) => {
      const up = await refusal(read(ctx, '../secret.txt'));
      expect(up.code).toBe(PATH_REFUSED_CODE);
      expect(up.message).toContain('../secret.txt');
      expect(up.message).toContain('outside the session');
      expect((await refusal(read(ctx, 'sub/../../secret.txt'))).code).toBe(PATH_REFUSED_CODE);
      expect((await refusal(write(ctx, join(dir.path, 'x.txt'), 'x'))).code).toBe(PATH_REFUSED_CODE);
      expect((await refusal(read(ctx, '/etc/hostname'))).code).toBe(PATH_REFUSED_CODE);
      expect((await refusal(read(ctx, '..'))).code).toBe(PATH_REFUSED_CODE);
    });
    const notices = recorded.filter((e) => e.kind === 'notice');
    expect(notices).toHaveLength(5);
    expect(notices[0]).toMatchObject({ kind: 'notice', payload: { kind: 'path_refused', text: expect.stringContaining('../secret.txt') } });
    expect(readdirSync(dir.path).sort()).toEqual(['secret.txt', 'work']);
  });

  posixOnly('refuses symlinks that point outside: a file link, a folder link and a linked ancestor, for reads and writes', async () => {
    const outside = join(dir.path, 'outside');
    mkdirSync(join(outside, 'deep'), { recursive: true });
    writeFileSync(join(outside, 'secret.txt'), 'no');
    writeFileSync(join(outside, 'deep', 'x.txt'), 'no');
    symlinkSync(join(outside, 'secret.txt'), join(cwd, 'file-link'));
    symlinkSync(outside, join(cwd, 'dir-link'));
    mkdirSync(join(cwd, 'a'));
    symlinkSync(join(outside, 'deep'), join(cwd, 'a', 'b'));
    await asAgent({ s1: scope }, async (ctx) => {
      for (const path of ['file-link', 'dir-link/secret.txt', 'a/b/x.txt', join(cwd, 'a', 'b', 'x.txt')]) {
        expect((await refusal(read(ctx, path))).message).toContain(path);
      }
      for (const path of ['file-link', 'dir-link/new.txt', 'a/b/new/deeper.txt']) {
        expect((await refusal(write(ctx, path, 'pwned'))).code).toBe(PATH_REFUSED_CODE);
      }
      // `..` is taken apart before links are resolved, and the file used is the one judged:
      // through a link and back, the write lands inside, never where the kernel would go.
      await write(ctx, 'dir-link/../landed.txt', 'inside');
    });
    expect(readFileSync(join(cwd, 'landed.txt'), 'utf8')).toBe('inside');
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('no');
    expect(readdirSync(outside).sort()).toEqual(['deep', 'secret.txt']);
    expect(readdirSync(join(outside, 'deep'))).toEqual(['x.txt']);
  });

  posixOnly('follows symlinks that stay inside, and a session folder that is itself reached through a link', async () => {
    writeFileSync(join(cwd, 'real.txt'), 'inside');
    symlinkSync(join(cwd, 'real.txt'), join(cwd, 'link.txt'));
    const linkedCwd = join(dir.path, 'linked-work');
    symlinkSync(cwd, linkedCwd);
    await asAgent({ s1: scope, s2: { cwd: linkedCwd } }, async (ctx) => {
      expect(await read(ctx, 'link.txt')).toEqual({ content: 'inside' });
      await write(ctx, 'link.txt', 'through the link');
      expect(await ctx.request(acp.methods.client.fs.readTextFile, { sessionId: 's2', path: join(linkedCwd, 'real.txt') })).toEqual({
        content: 'through the link',
      });
    });
    // The link still points at the file: the write replaced the target, not the link.
    expect(readFileSync(join(cwd, 'real.txt'), 'utf8')).toBe('through the link');
  });

  it('confines to every root of the session, and only those', async () => {
    const extra = join(dir.path, 'extra');
    mkdirSync(extra);
    writeFileSync(join(extra, 'shared.txt'), 'shared');
    await asAgent({ s1: { ...scope, roots: [cwd, extra] }, s2: scope }, async (ctx) => {
      expect(await read(ctx, join(extra, 'shared.txt'))).toEqual({ content: 'shared' });
      await refusal(ctx.request(acp.methods.client.fs.readTextFile, { sessionId: 's2', path: join(extra, 'shared.txt') }));
    });
  });

  posixOnly('writes atomically: creates folders, keeps the mode, leaves no temp file', async () => {
    writeFileSync(join(cwd, 'run.sh'), '#!/bin/sh\necho old\n');
    chmodSync(join(cwd, 'run.sh'), 0o750);
    await asAgent({ s1: scope }, async (ctx) => {
      await write(ctx, 'run.sh', '#!/bin/sh\necho new\n');
      await write(ctx, 'sub/dir/b.txt', 'hi');
    });
    expect(readFileSync(join(cwd, 'run.sh'), 'utf8')).toBe('#!/bin/sh\necho new\n');
    expect(statSync(join(cwd, 'run.sh')).mode & 0o777).toBe(0o750);
    expect(readFileSync(join(cwd, 'sub', 'dir', 'b.txt'), 'utf8')).toBe('hi');
    expect(readdirSync(cwd).sort()).toEqual(['run.sh', 'sub']);
    expect(readdirSync(join(cwd, 'sub', 'dir'))).toEqual(['b.txt']);
  });

  it('records each write in the transcript with the diff of old and new text', async () => {
    writeFileSync(join(cwd, 'a.txt'), 'old\n');
    await asAgent({ s1: scope }, async (ctx) => {
      await write(ctx, 'a.txt', 'new\n');
      await write(ctx, 'b.txt', 'fresh');
    });
    expect(recorded).toEqual([
      {
        kind: 'file_written',
        payload: { path: join(cwd, 'a.txt'), created: false, bytes: 4, diff: { type: 'diff', path: join(cwd, 'a.txt'), oldText: 'old\n', newText: 'new\n' } },
      },
      {
        kind: 'file_written',
        payload: { path: join(cwd, 'b.txt'), created: true, bytes: 5, diff: { type: 'diff', path: join(cwd, 'b.txt'), oldText: null, newText: 'fresh' } },
      },
    ]);
  });

  it('records a write too large to diff without its texts', async () => {
    const big = 'x'.repeat(MAX_DIFF_BYTES + 1);
    await asAgent({ s1: scope }, (ctx) => write(ctx, 'big.txt', big));
    expect(recorded).toEqual([{ kind: 'file_written', payload: { path: join(cwd, 'big.txt'), created: true, bytes: big.length } }]);
  });

  it('refuses to read a very large file whole, and reads a range of it without loading it all', async () => {
    const line = `${'y'.repeat(99)}\n`;
    const lines = Math.ceil(MAX_READ_BYTES / line.length) + 10;
    writeFileSync(join(cwd, 'huge.log'), line.repeat(lines - 1) + 'last line');
    await asAgent({ s1: scope }, async (ctx) => {
      const err = await refusal(read(ctx, 'huge.log'));
      expect(err.code).toBe(-32602);
      expect(err.message).toMatch(/huge\.log is \d+ bytes.*line and limit/);
      expect(await read(ctx, 'huge.log', { line: 2, limit: 2 })).toEqual({ content: `${'y'.repeat(99)}\n${'y'.repeat(99)}` });
      expect(await read(ctx, 'huge.log', { line: lines })).toEqual({ content: 'last line' });
      // A range that is itself too large is refused the same way.
      expect((await refusal(read(ctx, 'huge.log', { line: 1 }))).message).toContain('line and limit');
    });
  });

  it('answers a missing file with resource-not-found and a folder with invalid params', async () => {
    mkdirSync(join(cwd, 'folder'));
    await asAgent({ s1: scope }, async (ctx) => {
      expect((await refusal(read(ctx, 'nope.txt'))).code).toBe(acp.RequestError.resourceNotFound('x').code);
      expect((await refusal(read(ctx, 'folder'))).code).toBe(-32602);
      expect((await refusal(write(ctx, 'folder', 'x'))).code).toBe(-32602);
      expect((await refusal(ctx.request(acp.methods.client.fs.readTextFile, { sessionId: 'nobody', path: 'a.txt' }))).code).toBe(
        acp.RequestError.sessionNotFound('x').code,
      );
    });
  });

  it('advertises fs read and write in the client capabilities', () => {
    expect(clientCapabilities([fsHandlers(() => undefined)])).toEqual({ fs: { readTextFile: true, writeTextFile: true }, terminal: false });
  });

  it('advertises boolean session config options beside them (the header shows them as a checkbox)', () => {
    expect(clientCapabilities([fsHandlers(() => undefined), configOptionHandlers])).toEqual({
      fs: { readTextFile: true, writeTextFile: true },
      terminal: false,
      session: { configOptions: { boolean: {} } },
    });
  });
});
