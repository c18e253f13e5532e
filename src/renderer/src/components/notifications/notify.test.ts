import { afterEach, describe, expect, it, vi } from 'vitest';
import { mayNotify, notify } from './notify';

const made: { title: string; options: NotificationOptions }[] = [];

function stubNotification(permission: NotificationPermission, { constructible = true } = {}) {
  class FakeNotification {
    static permission = permission;
    onclick: (() => void) | null = null;
    constructor(title: string, options: NotificationOptions) {
      if (!constructible) throw new TypeError('Illegal constructor');
      made.push({ title, options });
    }
    close(): void {}
  }
  vi.stubGlobal('Notification', FakeNotification);
}

afterEach(() => {
  vi.unstubAllGlobals();
  made.length = 0;
});

const env = (desktop: boolean, worker = vi.fn(() => Promise.resolve(undefined))) => ({ desktop, openSession: vi.fn(), worker });

describe('notifications', () => {
  it('in a browser, only once the person granted them; in the desktop app unless refused', () => {
    stubNotification('default');
    expect(mayNotify(false)).toBe(false);
    expect(mayNotify(true)).toBe(true);
    stubNotification('granted');
    expect(mayNotify(false)).toBe(true);
    stubNotification('denied');
    expect(mayNotify(true)).toBe(false);
  });

  it('says why, names the session and replaces an older one of the same session', () => {
    stubNotification('granted');
    notify({ sessionId: 's1', title: 'Fix the build', why: 'finished' }, env(false));
    notify({ sessionId: 's1', title: 'Fix the build', why: 'permission' }, env(false));
    notify({ sessionId: 's1', title: 'Fix the build', why: 'question' }, env(false));
    expect(made.map((m) => [m.title, m.options.body, m.options.tag])).toEqual([
      ['The agent finished', 'Fix the build', 's1'],
      ['Permission needed', 'Fix the build', 's1'],
      ['The agent asks you a question', 'Fix the build', 's1'],
    ]);
  });

  it('shows nothing in a browser tab that was never granted them', () => {
    stubNotification('default');
    notify({ sessionId: 's1', title: 'x', why: 'finished' }, env(false));
    expect(made).toEqual([]);
  });

  it("goes through the service worker where the page may not make one (a phone's browser)", async () => {
    stubNotification('granted', { constructible: false });
    const showNotification = vi.fn(() => Promise.resolve());
    notify({ sessionId: 's1', title: 'On the phone', why: 'permission' }, env(false, vi.fn(() => Promise.resolve({ showNotification } as unknown as undefined))));
    await vi.waitFor(() => expect(showNotification).toHaveBeenCalledWith('Permission needed', expect.objectContaining({ body: 'On the phone', data: { sessionId: 's1' } })));
  });
});
