import { describe, expect, it } from 'vitest';
import { commandChannel, commandNames, eventChannel } from '../../shared/contract';
import { FakeFrame, FakeHost, FakeIpcMain, FakeWebContents, RENDERER } from '../test-support/ipc-fakes';
import { ElectronIpcTransport, rendererUrlMatcher } from './electron-ipc';

function setup() {
  const ipcMain = new FakeIpcMain();
  const host = new FakeHost();
  const transport = new ElectronIpcTransport({ ipcMain, host, isRendererUrl: rendererUrlMatcher(RENDERER) });
  return { ipcMain, host, transport };
}

const LIST = commandChannel('sessions:list');

describe('ElectronIpcTransport', () => {
  it('registers exactly one handler per contract command', () => {
    const { ipcMain } = setup();
    expect([...ipcMain.handlers.keys()].sort()).toEqual(commandNames.map(commandChannel).sort());
  });

  it('dispatches a command from our main frame with the window client id', async () => {
    const { ipcMain, host, transport } = setup();
    const wc = new FakeWebContents();
    transport.attach(wc);
    const result = await ipcMain.invoke(LIST, wc.event(), {});
    expect(result).toEqual({ ok: true, value: { clientId: transport.clientIdOf(wc.id), command: 'sessions:list' } });
    expect(host.calls).toEqual([{ clientId: transport.clientIdOf(wc.id), command: 'sessions:list', payload: {} }]);
  });

  it('accepts an equal main frame that is a different wrapper object', async () => {
    const { ipcMain, transport } = setup();
    const wc = new FakeWebContents();
    transport.attach(wc);
    const sameFrame = new FakeFrame(RENDERER, null, wc.mainFrame.processId, wc.mainFrame.routingId);
    expect(await ipcMain.invoke(LIST, wc.event(sameFrame), {})).toMatchObject({ ok: true });
  });

  it('rejects a webContents the app did not create', async () => {
    const { ipcMain, host } = setup();
    const stranger = new FakeWebContents();
    expect(await ipcMain.invoke(LIST, stranger.event(), {})).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(host.calls).toEqual([]);
  });

  it('rejects a subframe even when it shows our renderer URL', async () => {
    const { ipcMain, host, transport } = setup();
    const wc = new FakeWebContents();
    transport.attach(wc);
    const iframe = new FakeFrame(RENDERER, wc.mainFrame, 7, 99);
    expect(await ipcMain.invoke(LIST, wc.event(iframe), {})).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(host.calls).toEqual([]);
  });

  it('rejects a top-level frame that is not the window main frame', async () => {
    const { ipcMain, transport } = setup();
    const wc = new FakeWebContents();
    transport.attach(wc);
    const other = new FakeFrame(RENDERER, null, 8, 1234);
    expect(await ipcMain.invoke(LIST, wc.event(other), {})).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
  });

  it('rejects a sender whose frame has navigated away (null senderFrame)', async () => {
    const { ipcMain, transport } = setup();
    const wc = new FakeWebContents();
    transport.attach(wc);
    expect(await ipcMain.invoke(LIST, wc.event(null), {})).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
  });

  it('rejects our main frame when it shows a foreign document', async () => {
    const { ipcMain, host, transport } = setup();
    const wc = new FakeWebContents();
    transport.attach(wc);
    for (const url of [
      'https://example.com/',
      'file:///tmp/evil.html',
      'file:///opt/switchboard/out/renderer/other.html',
      'about:blank',
      'not a url',
    ]) {
      wc.mainFrame.url = url;
      expect(await ipcMain.invoke(LIST, wc.event(), {}), url).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    }
    expect(host.calls).toEqual([]);
  });

  it('accepts our renderer with a query or hash', async () => {
    const { ipcMain, transport } = setup();
    const wc = new FakeWebContents(`${RENDERER}?window=2#/session/1`);
    transport.attach(wc);
    expect(await ipcMain.invoke(LIST, wc.event(), {})).toMatchObject({ ok: true });
  });

  it('gives each window its own host client and routes events to it only', () => {
    const { host, transport } = setup();
    const a = new FakeWebContents();
    const b = new FakeWebContents();
    transport.attach(a);
    transport.attach(b);
    const idA = transport.clientIdOf(a.id)!;
    const idB = transport.clientIdOf(b.id)!;
    expect(idA).not.toEqual(idB);
    expect(host.clients.get(idA)?.sink.label).toBe('window 1');
    expect(host.clients.get(idB)?.sink.label).toBe('window 2');

    const payload = { sessionId: '00000000-0000-4000-8000-000000000000', lastSeq: 3 };
    host.clients.get(idA)!.sink.send('session:resync', payload);
    expect(a.sent).toEqual([{ channel: eventChannel('session:resync'), payload }]);
    expect(b.sent).toEqual([]);
  });

  it('attaching the same webContents twice keeps one client', () => {
    const { host, transport } = setup();
    const wc = new FakeWebContents();
    transport.attach(wc);
    transport.attach(wc);
    expect(host.live()).toHaveLength(1);
  });

  it('disposes the client when the webContents is destroyed and stops sending to it', async () => {
    const { ipcMain, host, transport } = setup();
    const wc = new FakeWebContents();
    transport.attach(wc);
    const id = transport.clientIdOf(wc.id)!;
    wc.destroy();
    expect(host.clients.get(id)?.disposed).toBe(true);
    expect(transport.windowCountAlive).toBe(0);
    expect(() => host.clients.get(id)!.sink.send('session:resync', { sessionId: 'x', lastSeq: 0 } as never)).not.toThrow();
    expect(await ipcMain.invoke(LIST, wc.event(), {})).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
  });

  it('disposes the client when the renderer process is gone and connects a new one on reload', async () => {
    const { ipcMain, host, transport } = setup();
    const wc = new FakeWebContents();
    transport.attach(wc);
    const first = transport.clientIdOf(wc.id)!;
    wc.crash();
    expect(host.clients.get(first)?.disposed).toBe(true);
    expect(transport.clientIdOf(wc.id)).toBeUndefined();

    wc.navigate();
    const second = transport.clientIdOf(wc.id)!;
    expect(second).not.toEqual(first);
    await ipcMain.invoke(LIST, wc.event(), {});
    expect(host.calls.at(-1)?.clientId).toBe(second);
    expect(host.live()).toEqual([second]);
  });

  it('replaces a used client when the page reloads, so the new page starts unsubscribed', async () => {
    const { ipcMain, host, transport } = setup();
    const wc = new FakeWebContents();
    transport.attach(wc);
    const first = transport.clientIdOf(wc.id)!;
    await ipcMain.invoke(commandChannel('sessions:switch'), wc.event(), { sessionId: 'x' });

    wc.navigate();
    const second = transport.clientIdOf(wc.id)!;
    expect(second).not.toEqual(first);
    expect(host.clients.get(first)?.disposed).toBe(true);
    expect(host.live()).toEqual([second]);
    // Commands sent by the new page immediately after the reload use the new client.
    await ipcMain.invoke(LIST, wc.event(), {});
    wc.navigate({ isSameDocument: true, url: `${RENDERER}#/x` });
    expect(transport.clientIdOf(wc.id)).toBe(second);
    expect(host.calls.at(-1)?.clientId).toBe(second);
  });

  it('keeps the client on the first load (nothing subscribed yet)', () => {
    const { host, transport } = setup();
    const wc = new FakeWebContents();
    transport.attach(wc);
    const first = transport.clientIdOf(wc.id);
    wc.navigate();
    expect(transport.clientIdOf(wc.id)).toBe(first);
    expect(host.live()).toEqual([first]);
  });

  it('keeps the client for subframe, same-document and foreign (guarded) navigations', async () => {
    const { ipcMain, transport } = setup();
    const wc = new FakeWebContents();
    transport.attach(wc);
    await ipcMain.invoke(LIST, wc.event(), {});
    const id = transport.clientIdOf(wc.id);
    wc.navigate({ isMainFrame: false });
    wc.navigate({ isSameDocument: true });
    wc.navigate({ url: 'https://example.com/' }); // will-navigate cancels it after this event
    expect(transport.clientIdOf(wc.id)).toBe(id);
  });

  it('dispose removes every handler and client', () => {
    const { ipcMain, host, transport } = setup();
    transport.attach(new FakeWebContents());
    transport.attach(new FakeWebContents());
    transport.dispose();
    transport.dispose();
    expect(ipcMain.handlers.size).toBe(0);
    expect(host.live()).toEqual([]);
  });

  it('answers with an error result when the host throws', async () => {
    const ipcMain = new FakeIpcMain();
    const host = new FakeHost();
    host.dispatch = () => Promise.reject(new Error('boom'));
    const transport = new ElectronIpcTransport({ ipcMain, host, isRendererUrl: rendererUrlMatcher(RENDERER) });
    const wc = new FakeWebContents();
    transport.attach(wc);
    expect(await ipcMain.invoke(LIST, wc.event(), {})).toEqual({ ok: false, error: { code: 'internal', message: 'boom' } });
  });
});

describe('rendererUrlMatcher', () => {
  it('matches the dev server by origin', () => {
    const isOurs = rendererUrlMatcher('http://localhost:5173/');
    expect(isOurs('http://localhost:5173/index.html')).toBe(true);
    expect(isOurs('http://localhost:5174/')).toBe(false);
    expect(isOurs('https://localhost:5173/')).toBe(false);
  });

  it('matches the built renderer by exact file path', () => {
    const isOurs = rendererUrlMatcher(RENDERER);
    expect(isOurs(RENDERER)).toBe(true);
    expect(isOurs('file:///opt/switchboard/out/renderer/index.html.evil')).toBe(false);
    expect(isOurs('file://remote-host/opt/switchboard/out/renderer/index.html')).toBe(false);
  });
});
