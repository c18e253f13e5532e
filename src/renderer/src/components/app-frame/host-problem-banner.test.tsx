import { describe, expect, it } from 'vitest';
import type { HostProblemT } from '../../../../shared/contract';
import { flush } from '../../test-support/fake-api';
import { renderWith, storeWith } from '../../test-support/static-render';
import { boundStore, ok } from '../../test-support/store-fixtures';
import { HostProblemBanner } from './host-problem-banner';

const error: HostProblemT = { kind: 'error', at: Date.UTC(2026, 10, 26, 13, 4), message: 'TypeError: x is undefined', report: 'crash-2026-11-26T13-04-00-000Z.log' };
const restarted: HostProblemT = { ...error, kind: 'restarted', report: 'crash-2026-11-26T12-00-00-000Z.log' };

describe('the host problem banner', () => {
  it('says the host went on, or restarted, and offers Copy details', () => {
    const html = renderWith(storeWith({ hostProblems: [error], hostProblemsSeen: 0 }), <HostProblemBanner />);
    expect(html).toContain('role="alert"');
    expect(html).toContain('Switchboard hit an unexpected error (TypeError: x is undefined)');
    expect(html).toContain('and went on');
    expect(html).toContain('Copy details');
    expect(renderWith(storeWith({ hostProblems: [restarted] }), <HostProblemBanner />)).toContain('Switchboard restarted after an unexpected error (TypeError: x is undefined)');
    expect(renderWith(storeWith({ hostProblems: [error], hostProblemsSeen: 1 }), <HostProblemBanner />)).toBe('');
  });

  it('hears problems pushed and those host:info lists (a restart), each once, and fetches the log for Copy details', async () => {
    const { fake, store } = boundStore();
    fake.handle('host:info', () =>
      ok({ version: '1', headless: true, clientId: 'c', agents: [], settings: { idleTimeoutMs: 0, reapIntervalMs: 0, permissionTimeoutMs: 0, defaultCwd: '/', defaultAgentId: 'demo', maxSessionsPerBroker: 8 }, problems: [restarted] }),
    );
    await store.getState().loadHostInfo();
    fake.emit('host:problem', error);
    fake.emit('host:problem', error);
    await store.getState().loadHostInfo();
    await flush();
    expect(store.getState().hostProblems.map((p) => p.kind)).toEqual(['restarted', 'error']);
    store.getState().dismissHostProblems();
    expect(store.getState().hostProblemsSeen).toBe(2);
    fake.handle('crashes:read', (req) => ok({ report: req.report, text: `log of ${req.report}` }));
    expect(await store.getState().crashReport(error.report)).toEqual({ ok: true, value: `log of ${error.report}` });
  });
});
