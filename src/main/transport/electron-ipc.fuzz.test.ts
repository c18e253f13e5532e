import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandChannel, commandNames, type Result } from '../../shared/contract';
import { ErrorCode } from '../../shared/errors';
import type { HostPort } from '../host/host-port';
import { contractRequest } from '../test-support/contract-fuzz';
import { fuzzSettings, fuzzTimeout } from '../test-support/fuzz';
import { startHarness, type Harness } from '../test-support/host-harness';
import { FakeFrame, FakeIpcMain, FakeWebContents, RENDERER } from '../test-support/ipc-fakes';
import { ElectronIpcTransport, rendererUrlMatcher } from './electron-ipc';

/**
 * The Electron IPC transport with stand-ins for `ipcMain`, `WebContents` and frames, in front
 * of a real host (real SQLite, the real demo agent): the contract fuzz of the WebSocket test
 * through IPC, and messages from frames and documents that are not ours, which must be refused
 * before they reach the host.
 */

let h: Harness;
let workDir: string;
const sessionIds: string[] = [];
/** Every request that reached the host, by the client it came from. */
const reached: string[] = [];
let ipcMain: FakeIpcMain;
let transport: ElectronIpcTransport;
let window: FakeWebContents;
let other: FakeWebContents;

beforeAll(async () => {
  h = await startHarness();
  workDir = join(h.dataDir, 'work');
  mkdirSync(workDir);
  const host: HostPort = {
    connect: (sink) => h.host.connect(sink),
    dispatch: (clientId, command, payload) => {
      reached.push(clientId);
      return h.host.dispatch(clientId, command, payload);
    },
  };
  ipcMain = new FakeIpcMain();
  transport = new ElectronIpcTransport({ ipcMain, host, isRendererUrl: rendererUrlMatcher(RENDERER) });
  window = new FakeWebContents();
  other = new FakeWebContents();
  transport.attach(window);
  transport.attach(other);
  const w = h.window();
  for (let i = 0; i < 3; i++) sessionIds.push((await w.call('sessions:create', { cwd: workDir })).id);
});
afterAll(async () => {
  transport?.dispose();
  await h?.cleanup();
});

const errorCodes = new Set<string>(ErrorCode.options);

/** Another window still gets answers. */
async function otherWindowServed(): Promise<void> {
  const info = (await ipcMain.invoke(commandChannel('host:info'), other.event(), {})) as Result<unknown>;
  expect(info.ok, 'another window is still served').toBe(true);
}

describe('the Electron IPC transport, fuzzed', () => {
  const settings = fuzzSettings(400);
  it(
    `answers each of ${settings.numRuns} random requests to every command once, with a contract result`,
    async () => {
      const request = contractRequest({ sessionIds, workDir }).filter((r) => (commandNames as readonly string[]).includes(r.command));
      await fc.assert(
        fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 4 }), async (batch) => {
          const results = (await Promise.all(
            batch.map(({ command, payload }) => ipcMain.invoke(commandChannel(command), window.event(), payload)),
          )) as Result<unknown>[];
          results.forEach((result, i) => {
            const what = `${batch[i]!.command} ${JSON.stringify(batch[i]!.payload)?.slice(0, 300)}`;
            expect(typeof result.ok, `${what}: a result wrapper`).toBe('boolean');
            if (result.ok) return;
            expect(errorCodes.has(result.error.code), `${what}: a contract error code`).toBe(true);
            expect(result.error.code, `${what}: failed unexpectedly: ${result.error.message}`).not.toBe('internal');
          });
          await otherWindowServed();
        }),
        settings,
      );
    },
    fuzzTimeout(settings, 30),
  );

  const senderSettings = fuzzSettings(2_000);
  it(`refuses, before the host sees it, each of ${senderSettings.numRuns} messages from a frame or document that is not ours`, async () => {
    const foreignUrl = fc.oneof(
      fc.constantFrom(
        'https://evil.example/',
        'file:///tmp/evil.html',
        'file:///opt/switchboard/out/renderer/other.html',
        'file://host/opt/switchboard/out/renderer/index.html',
        'http://localhost:5173/',
        'about:blank',
        'data:text/html,<script>1</script>',
        'javascript:alert(1)',
        'devtools://devtools/bundled/inspector.html',
        'chrome-extension://abc/index.html',
        '',
        'not a url',
      ),
      fc.webUrl(),
    );
    // Which part of "our main frame showing our document" each message gets wrong.
    const sender = fc.record({
      url: fc.oneof(fc.constant(RENDERER), fc.constant(`${RENDERER}?x=1#/y`), foreignUrl),
      subframe: fc.boolean(),
      otherFrameIds: fc.boolean(),
      noFrame: fc.boolean(),
      unknownWindow: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(sender, fc.constantFrom(...commandNames), fc.jsonValue({ maxDepth: 2 }), async (s, command, payload) => {
        const ours = rendererUrlMatcher(RENDERER)(s.url);
        const legit = ours && !s.subframe && !s.otherFrameIds && !s.noFrame && !s.unknownWindow;
        fc.pre(!legit);
        const wc = s.unknownWindow ? new FakeWebContents() : window;
        const frame = s.noFrame
          ? null
          : new FakeFrame(s.url, s.subframe ? wc.mainFrame : null, s.otherFrameIds ? 99 : wc.mainFrame.processId, s.otherFrameIds ? 4242 : wc.mainFrame.routingId);
        const before = reached.length;
        const result = (await ipcMain.invoke(commandChannel(command), wc.event(frame), payload)) as Result<unknown>;
        expect(result).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
        expect(reached.length, 'nothing reached the host').toBe(before);
      }),
      senderSettings,
    );
    await otherWindowServed();
  });
});
