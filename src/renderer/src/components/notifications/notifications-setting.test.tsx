import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWith, storeWith } from '../../test-support/static-render';
import { NotificationsSetting } from './notifications-setting';
import type { HostInfoT } from '../../../../shared/contract';

const hostInfo = (headless: boolean): HostInfoT => ({
  version: '0',
  headless,
  clientId: 'c',
  agents: [],
  settings: { idleTimeoutMs: 0, reapIntervalMs: 0, permissionTimeoutMs: 0, defaultCwd: '/', defaultAgentId: 'demo', maxSessionsPerBroker: 1 },
});

afterEach(() => vi.unstubAllGlobals());

function stub(permission: NotificationPermission) {
  const requestPermission = vi.fn(() => Promise.resolve<NotificationPermission>('granted'));
  vi.stubGlobal('Notification', { permission, requestPermission });
  return requestPermission;
}

describe('the notifications setting', () => {
  it('offers Turn on notifications in a browser that has not been asked, and asks nothing while rendering', () => {
    const ask = stub('default');
    const html = renderWith(storeWith({ hostInfo: hostInfo(true) }), <NotificationsSetting />);
    expect(html).toContain('>Turn on notifications</button>');
    expect(ask).not.toHaveBeenCalled();
  });

  it('says when they are on or blocked, with no button', () => {
    stub('granted');
    expect(renderWith(storeWith({ hostInfo: hostInfo(true) }), <NotificationsSetting />)).toContain('On: this browser tells you');
    stub('denied');
    const blocked = renderWith(storeWith({ hostInfo: hostInfo(true) }), <NotificationsSetting />);
    expect(blocked).toContain('Blocked');
    expect(blocked).not.toContain('<button');
  });

  it('is not shown in the desktop app, which notifies without asking', () => {
    stub('default');
    expect(renderWith(storeWith({ hostInfo: hostInfo(false) }), <NotificationsSetting />)).toBe('');
  });
});
