import { describe, expect, it } from 'vitest';
import type { SessionEventT } from '../../../../../shared/contract';
import { ev, SID } from '../../../test-support/fake-api';
import { RowGrouper } from './rows';

/** Long streams other than text: many tool calls, a tool's output growing, a plan updated often. */
describe('rows of long non-text streams', () => {
  const events: SessionEventT[] = [];
  let seq = 0;
  const push = (kind: SessionEventT['kind'], payload: Record<string, unknown>) => events.push(ev(++seq, kind, payload, SID));

  it('keeps hundreds of tool cards in place while one of them and a plan are updated many times', () => {
    const grouper = new RowGrouper();
    push('user_message', { text: 'go' });
    for (let i = 0; i < 300; i++) push('tool_call', { toolCallId: `t${i}`, title: `Read ${i}`, status: 'pending' });
    push('plan', { entries: [{ content: 'step', status: 'pending' }] });
    const first = grouper.update(events);
    const count = first.count;
    const before = Array.from({ length: count }, (_, i) => first.at(i));

    let output = '';
    for (let u = 0; u < 200; u++) {
      output += `out ${u}\n`;
      push('tool_call_update', { toolCallId: 't150', status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text: output } }] });
      push('plan', { entries: [{ content: 'step', status: u % 2 ? 'completed' : 'in_progress' }] });
      const list = grouper.update(events);
      // Same rows, same keys, same layout: the virtualised list does not re-measure.
      expect(list.count).toBe(count);
      expect(list.layout).toBe(first.layout);
    }
    const last = grouper.update(events);
    const changed = before.flatMap((row, i) => (last.at(i) === row ? [] : [i]));
    // Only the updated card and the plan are new objects; every other card keeps its identity.
    expect(changed).toEqual([151, 301]);
    expect(last.at(151)).toMatchObject({ type: 'tool', key: before[151]?.key, call: { status: 'in_progress' } });
    expect(grouper.stats.regroups).toBe(0);
    expect(grouper.stats.folded).toBe(events.length);
  });
});
