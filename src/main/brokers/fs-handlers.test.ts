import * as acp from '@agentclientprotocol/sdk';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir';
import { clientCapabilities } from './client-handlers';
import { configOptionHandlers } from './config-options';
import { fsHandlers } from './fs-handlers';

/** Runs `op` as an in-process agent talking to a client that has only the fs handlers. */
function asAgent<T>(cwdOf: Record<string, string>, op: (ctx: acp.AgentContext) => Promise<T>): Promise<T> {
  const handlers = fsHandlers((id) => (cwdOf[id] ? { cwd: cwdOf[id] } : undefined));
  const client = handlers.register(acp.client({ name: 'test-client' }));
  return acp.agent({ name: 'test-agent' }).connectWith(client, op);
}

describe('fs/* client request handlers', () => {
  let dir: ReturnType<typeof tempDir>;
  let cwd: string;
  beforeEach(() => {
    dir = tempDir();
    cwd = join(dir.path, 'work');
    mkdirSync(cwd);
  });
  afterEach(() => dir.cleanup());

  it('reads a file in the session folder, whole or by line range', async () => {
    writeFileSync(join(cwd, 'a.txt'), 'one\ntwo\nthree\nfour');
    await asAgent({ s1: cwd }, async (ctx) => {
      expect(await ctx.request(acp.methods.client.fs.readTextFile, { sessionId: 's1', path: 'a.txt' })).toEqual({ content: 'one\ntwo\nthree\nfour' });
      expect(await ctx.request(acp.methods.client.fs.readTextFile, { sessionId: 's1', path: 'a.txt', line: 2, limit: 2 })).toEqual({ content: 'two\nthree' });
    });
  });

  it('writes a file in the session folder, creating its folders', async () => {
    await asAgent({ s1: cwd }, (ctx) => ctx.request(acp.methods.client.fs.writeTextFile, { sessionId: 's1', path: 'sub/b.txt', content: 'hi' }));
    expect(readFileSync(join(cwd, 'sub', 'b.txt'), 'utf8')).toBe('hi');
  });

  it('refuses paths outside the session folder and sessions nobody holds', async () => {
    writeFileSync(join(dir.path, 'secret.txt'), 'no');
    await asAgent({ s1: cwd }, async (ctx) => {
      await expect(ctx.request(acp.methods.client.fs.readTextFile, { sessionId: 's1', path: '../secret.txt' })).rejects.toThrow(/outside the session folder/);
      await expect(ctx.request(acp.methods.client.fs.writeTextFile, { sessionId: 's1', path: join(dir.path, 'x.txt'), content: 'x' })).rejects.toThrow(
        /outside the session folder/,
      );
      await expect(ctx.request(acp.methods.client.fs.readTextFile, { sessionId: 'nobody', path: 'a.txt' })).rejects.toThrow();
    });
  });

  it('advertises fs read and write, and no terminal, in the client capabilities', () => {
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
