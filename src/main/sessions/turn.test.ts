import { describe, expect, it } from 'vitest';
import { Turn } from './turn';

const settledWithin = async (p: Promise<unknown>): Promise<boolean> => {
  let settled = false;
  void p.then(() => (settled = true));
  await Promise.resolve();
  await Promise.resolve();
  return settled;
};

describe('Turn', () => {
  it('runs until Stop, which marks it cancelled but still waits for the agent', async () => {
    const turn = new Turn('m1');
    expect(turn.state).toBe('running');
    expect(turn.cancelled).toBe(false);
    turn.cancel();
    expect(turn.state).toBe('cancelling');
    expect(turn.cancelled).toBe(true);
    expect(turn.closed).toBe(false);
    expect(await settledWithin(turn.abandoned)).toBe(false);
  });

  it('stops waiting for the agent once abandoned (the Stop deadline), twice changing nothing', async () => {
    const turn = new Turn('m1');
    turn.cancel();
    turn.abandon();
    turn.abandon();
    expect(await turn.abandoned).toBe('abandoned');
    expect(turn.state).toBe('cancelling');
  });

  it('is closed by a close, which also stops waiting, and Stop afterwards does not reopen it', async () => {
    const turn = new Turn('m1');
    turn.closeByHost();
    turn.cancel();
    expect(turn.state).toBe('closed');
    expect(turn.cancelled).toBe(true);
    expect(turn.closed).toBe(true);
    expect(await settledWithin(turn.abandoned)).toBe(true);
  });
});
