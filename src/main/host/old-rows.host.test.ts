import { afterEach, describe, expect, it } from 'vitest';
import { dataPaths } from '../datadir/paths';
import { Store } from '../store/store';
import { startHarness, type Harness } from '../test-support/host-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe('a data folder written by an older version', () => {
  it('opens its sessions, shows rows it cannot read as unreadable events, and goes on with the next prompt', async () => {
    h = await startHarness();
    const w0 = h.window();
    const { id } = await w0.call('sessions:create', {});
    await h.settled(id);
    await h.host.service.close(id, 'closed_by_user');

    await h.restart({}, () => {
      const store = Store.open(dataPaths(h!.dataDir).database);
      try {
        // A reason an older sidebar knew but this version does not, and rows of older shapes.
        store.db.prepare(`UPDATE sessions SET state_reason = 'closed' WHERE id = ?`).run(id);
        const seq = store.db.prepare(`SELECT last_seq FROM sessions WHERE id = ?`).pluck().get(id) as number;
        const insert = store.db.prepare(`INSERT INTO events (session_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, 1)`);
        insert.run(id, seq + 1, 'agent_update', JSON.stringify({ update: { sessionUpdate: 'current_mode_update', currentModeId: 'plan' } }));
        insert.run(id, seq + 2, 'user_message', JSON.stringify({ text: 'from long ago' }));
        insert.run(id, seq + 3, 'mode_changed', '{"mode":"plan"}');
        insert.run(id, seq + 4, 'tool_call', 'not json{');
        store.db.prepare(`UPDATE sessions SET last_seq = ? WHERE id = ?`).run(seq + 4, id);
      } finally {
        store.dispose();
      }
    });

    const w = h.window();
    const answer = await w.call('sessions:switch', { sessionId: id });
    expect(answer.session.state).toBe('ENDED');
    expect(answer.session).not.toHaveProperty('stateReason');
    const page = await w.call('transcript:page', { sessionId: id });
    expect(page.events.slice(-4)).toMatchObject([
      { kind: 'agent_update', payload: { sessionUpdate: 'current_mode_update', extra: { currentModeId: 'plan' } } },
      { kind: 'user_message', payload: { text: 'from long ago' } },
      { kind: 'unreadable', payload: { storedKind: 'mode_changed', raw: '{"mode":"plan"}' } },
      { kind: 'unreadable', payload: { storedKind: 'tool_call', raw: 'not json{' } },
    ]);

    const end = await w.prompt(id, 'still there?');
    expect(end).toMatchObject({ kind: 'turn_ended', payload: { stopReason: 'end_turn' } });
    expect(w.agentText(id)).toContain('still there?');
  });
});
