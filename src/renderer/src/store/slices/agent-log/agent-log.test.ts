import { describe, expect, it } from 'vitest';
import type { AgentLogEntryT } from '../../../../../shared/contract';
import { SID, flush } from '../../../test-support/fake-api';
import { boundStore, ok } from '../../../test-support/store-fixtures';
import { MAX_LOG_ENTRIES } from './initial-state';

const line = (text: string): AgentLogEntryT => ({ kind: 'stderr', text });

describe('Agent log slice', () => {
  it('shows the backlog, then lines pushed for that session, and closes on the host', async () => {
    const { fake, store } = boundStore();
    fake.handle('agents:log', () => ok({ sessionId: SID, agentName: 'Demo agent', live: true, entries: [line('ready')], truncated: false }));
    fake.handle('agents:unfollow', () => ok({ ok: true as const }));
    await store.getState().openAgentLog(SID);
    fake.emit('agent:log', { sessionId: SID, entries: [line('next')], dropped: 2 });
    fake.emit('agent:log', { sessionId: '22222222-2222-4222-8222-222222222222', entries: [line('other session')], dropped: 0 });
    expect(store.getState().agentLog?.entries.map((e) => (e.kind === 'stderr' ? e.text : e.kind))).toEqual(['ready', 'next']);
    expect(store.getState().agentLog?.dropped).toBe(2);

    store.getState().closeAgentLog(SID);
    await flush();
    expect(store.getState().agentLog).toBeUndefined();
    expect(fake.callsOf('agents:unfollow')).toEqual([{ sessionId: SID }]);
  });

  it('keeps a bounded number of lines, the newest', async () => {
    const { fake, store } = boundStore();
    fake.handle('agents:log', () => ok({ sessionId: SID, agentName: 'Demo agent', live: true, entries: [], truncated: false }));
    await store.getState().openAgentLog(SID);
    fake.emit('agent:log', { sessionId: SID, entries: Array.from({ length: MAX_LOG_ENTRIES + 10 }, (_, i) => line(`l${i}`)), dropped: 0 });
    const log = store.getState().agentLog!;
    expect(log.entries).toHaveLength(MAX_LOG_ENTRIES);
    expect(log.entries.at(-1)).toEqual(line(`l${MAX_LOG_ENTRIES + 9}`));
    expect(log.truncated).toBe(true);
  });
});
