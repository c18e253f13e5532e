import { describe, expect, it } from 'vitest';
import { SID, SID2 } from '../../../test-support/fake-api';
import { answer, boundStore, ok, question } from '../../../test-support/store-fixtures';

async function withQuestion() {
  const ctx = boundStore();
  ctx.fake
    .handle('sessions:switch', () => ok(answer({ pendingQuestions: [question('q1')] })))
    .handle('transcript:page', () => ok({ events: [], hasMore: false }));
  await ctx.store.getState().switchSession(SID);
  return ctx;
}

describe('questions from the agent in the window', () => {
  it('shows the questions a switch answer carries, and counts them in the view', async () => {
    const { store } = await withQuestion();
    expect([...store.getState().pendingQuestions.keys()]).toEqual(['q1']);
    expect(store.getState().sessionsById.get(SID)?.pendingQuestions).toBe(1);
  });

  it('opens one on question:asked and closes it on question:resolved; another session’s are not shown', async () => {
    const { fake, store } = await withQuestion();
    fake.emit('question:resolved', { requestId: 'q1', sessionId: SID });
    fake.emit('question:asked', question('q2'));
    fake.emit('question:asked', question('q3', SID2));
    expect([...store.getState().pendingQuestions.keys()]).toEqual(['q2']);
  });

  it('sends the answer and closes it when the host took it', async () => {
    const { fake, store } = await withQuestion();
    const sent: unknown[] = [];
    fake.handle('questions:answer', (req) => (sent.push(req), ok({ ok: true as const })));
    expect(await store.getState().answerQuestion('q1', 'accept', { email: 'a@b.example' })).toBe(true);
    expect(sent).toEqual([{ requestId: 'q1', sessionId: SID, action: 'accept', content: { email: 'a@b.example' } }]);
    expect(store.getState().pendingQuestions.size).toBe(0);
  });

  it('keeps it open with the reason beside each field the host refused', async () => {
    const { fake, store } = await withQuestion();
    fake.handle('questions:answer', () => ({
      ok: false,
      error: { code: 'invalid_request', message: 'The answer does not fit the form: email: Must be an email address', details: { issues: [{ path: ['content', 'email'], message: 'Must be an email address' }] } },
    }));
    expect(await store.getState().answerQuestion('q1', 'accept', { email: 'nope' })).toBe(false);
    const pending = store.getState().pendingQuestions.get('q1');
    expect(pending).toMatchObject({ answering: false, error: { fields: { email: 'Must be an email address' }, message: expect.stringContaining('does not fit') } });
  });

  it('closes it quietly with a notice when another window (or the deadline) answered first', async () => {
    const { fake, store } = await withQuestion();
    fake.handle('questions:answer', () => ({ ok: false, error: { code: 'question_answered', message: 'x' } }));
    await store.getState().answerQuestion('q1', 'decline');
    expect(store.getState().pendingQuestions.size).toBe(0);
    expect(store.getState().notices.at(-1)?.text).toMatch(/already answered in another window/);
  });

  it('a switch answer asked for before a question was resolved does not bring it back', async () => {
    const { fake, store } = boundStore();
    let release!: () => void;
    fake
      .handle('sessions:switch', () => new Promise((resolve) => (release = () => resolve(ok(answer({ pendingQuestions: [question('q1')] }))))))
      .handle('transcript:page', () => ok({ events: [], hasMore: false }));
    const switching = store.getState().switchSession(SID);
    fake.emit('question:resolved', { requestId: 'q1', sessionId: SID });
    fake.emit('question:asked', question('q2'));
    release();
    await switching;
    expect([...store.getState().pendingQuestions.keys()]).toEqual(['q2']);
  });
});
