/**
 * Questions from the agent (issue 20) at the host level: the real SessionHost, the real demo
 * agent (`/elicit` asks a form with every kind of field and a secret one, `/elicit url URL MS`
 * a page to open then `elicitation/complete` after MS, `/elicit malformed` a form no client can
 * show, `/cancel-request elicit MS` a question it withdraws), and TestWindows for windows.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ofKind, type EventOf, type QuestionViewT, type SessionEventT } from '../../shared/contract';
import { MASKED } from '../../shared/elicitation';
import { FakeClock } from '../test-support/fake-clock';
import { startHarness, type Harness, type TestWindow } from '../test-support/host-harness';
import type { HostOptions } from './session-host';

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const SECRET = 'hunter22-very-secret';
/** A valid answer to the demo's form (its required fields, and the secret one). */
const ANSWER = { name: 'web', email: 'ann@example.com', region: 'us', replicas: 3, confirm: true, token: SECRET };

async function start(options: Partial<HostOptions> = {}): Promise<TestWindow> {
  h = await startHarness(options);
  return h.window('window 1');
}

async function watched(w: TestWindow): Promise<string> {
  const { id } = await w.call('sessions:create', { cwd: h!.dataDir });
  await w.call('sessions:switch', { sessionId: id });
  return id;
}

function send(w: TestWindow, sessionId: string, text: string) {
  return w.call('prompt:send', { sessionId, clientMessageId: randomUUID(), text });
}

function asked(w: TestWindow, sessionId: string): Promise<QuestionViewT> {
  return w.waitFor('question:asked', (q) => q.sessionId === sessionId);
}

/** The payloads of one kind of stored event. */
function payloads<K extends SessionEventT['kind']>(events: SessionEventT[], kind: K): EventOf<K>['payload'][] {
  return events.filter(ofKind(kind)).map((e) => e.payload as EventOf<K>['payload']);
}

describe('a form question', () => {
  it('reaches every window watching with every kind of field; the first answer wins, the other window withdraws it', async () => {
    const w = await start();
    const other = h!.window('window 2');
    const id = await watched(w);
    await other.call('sessions:switch', { sessionId: id });
    await send(w, id, '/elicit');
    const q = await asked(w, id);
    expect((await asked(other, id)).requestId).toBe(q.requestId);
    if (q.question.mode !== 'form') throw new Error('expected a form');
    const kinds = q.question.form.fields.map((f) => (f.kind === 'text' ? (f.format ?? (f.secret ? 'secret' : 'text')) : f.kind === 'number' ? (f.integer ? 'integer' : 'number') : f.kind));
    expect(kinds).toEqual(['text', 'email', 'uri', 'date', 'date-time', 'choice', 'choice', 'multi_choice', 'multi_choice', 'number', 'integer', 'boolean', 'secret']);
    expect(q.question.form.fields.filter((f) => f.required).map((f) => f.name)).toEqual(['name', 'email', 'region', 'replicas', 'confirm']);
    await w.waitFor('session:updated', (v) => v.id === id && v.pendingQuestions === 1);

    await w.call('questions:answer', { requestId: q.requestId, sessionId: id, action: 'accept', content: ANSWER });
    await other.waitFor('question:resolved', (r) => r.requestId === q.requestId);
    await expect(other.call('questions:answer', { requestId: q.requestId, sessionId: id, action: 'decline' })).rejects.toMatchObject({ code: 'question_answered' });
    await w.waitForText(id, 'You answered:');
    await w.waitIdle(id);
    const said = w.agentText(id);
    expect(said).toContain('- name: "web"');
    expect(said).toContain(`- token: (received, ${SECRET.length} characters, not shown)`);

    const stored = h!.stored(id);
    expect(payloads(stored, 'question_answered')).toEqual([
      { requestId: q.requestId, action: 'accept', content: { ...ANSWER, token: MASKED }, decider: { kind: 'window', clientId: w.id, label: expect.any(String) } },
    ]);
    // The secret is nowhere in what Switchboard keeps or sent to windows.
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    expect(JSON.stringify(other.events)).not.toContain(SECRET);
    expect(JSON.stringify(h!.host.store.db.prepare('SELECT * FROM questions').all())).not.toContain(SECRET);
    expect(h!.host.questions.countFor(id)).toBe(0);
  });

  it('refuses an answer that does not fit the form with a reason per field, and changes nothing', async () => {
    const w = await start();
    const id = await watched(w);
    await send(w, id, '/elicit');
    const q = await asked(w, id);
    const refused = await h!.host.dispatch(w.id, 'questions:answer', {
      requestId: q.requestId,
      sessionId: id,
      action: 'accept',
      content: { ...ANSWER, email: 'not an email', replicas: 11, extra: 1 },
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const issues = !refused.ok && 'details' in refused.error ? (refused.error.details?.issues ?? []) : [];
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: ['content', 'email'], message: 'Must be an email address' },
        { path: ['content', 'replicas'], message: 'Must be 10 or less' },
        { path: ['content'], message: '"extra" is not a field of this form' },
      ]),
    );
    expect(h!.host.questions.countFor(id)).toBe(1);
    await w.call('questions:answer', { requestId: q.requestId, sessionId: id, action: 'accept', content: ANSWER });
    await w.waitForText(id, 'You answered:');
  });

  it('Decline and Cancel answer decline and cancel', async () => {
    const w = await start();
    const id = await watched(w);
    await send(w, id, '/elicit');
    const first = await asked(w, id);
    await w.call('questions:answer', { requestId: first.requestId, sessionId: id, action: 'decline' });
    await w.waitForText(id, 'You declined the question.');
    await w.waitIdle(id);
    const mark = w.mark();
    await send(w, id, '/elicit');
    const second = await w.waitFor('question:asked', (q) => q.sessionId === id, 15_000, mark);
    await w.call('questions:answer', { requestId: second.requestId, sessionId: id, action: 'cancel' });
    await w.waitForText(id, 'The question was cancelled.');
    expect(payloads(h!.stored(id), 'question_answered').map((a) => a.action)).toEqual(['decline', 'cancel']);
  });

  it('a malformed form: the agent gets -32602 with the reason, the transcript a notice, no window a question', async () => {
    const w = await start();
    const id = await watched(w);
    await send(w, id, '/elicit malformed');
    await w.waitForText(id, 'The client refused the question:');
    expect(w.agentText(id)).toMatch(/malformed.*\(error -32602\)/);
    const notices = payloads(h!.stored(id), 'notice');
    expect(notices).toEqual([expect.objectContaining({ kind: 'question_refused', text: expect.stringMatching(/properties\.colour\.type.*minLength 5 is more than maxLength 2/s) })]);
    expect(w.events.some((e) => e.event === 'question:asked')).toBe(false);
  });
});

describe('a URL question', () => {
  it('shows the host, opens the page through the port only once accepted, then records elicitation/complete', async () => {
    const opened: string[] = [];
    const w = await start({ openExternal: (url) => opened.push(url) });
    const id = await watched(w);
    await send(w, id, '/elicit url https://login.example.com/sso?x=1 50');
    const q = await asked(w, id);
    expect(q.question).toMatchObject({ mode: 'url', target: { displayHost: 'login.example.com', deceptive: false, href: 'https://login.example.com/sso?x=1' } });
    expect(opened).toEqual([]);
    expect((await w.call('host:info', {})).canOpenExternal).toBe(true);
    await w.call('questions:answer', { requestId: q.requestId, sessionId: id, action: 'accept' });
    expect(opened).toEqual(['https://login.example.com/sso?x=1']);
    await w.waitForText(id, 'Signed in (elicitation/complete sent');
    await w.waitIdle(id);
    const stored = h!.stored(id);
    expect(payloads(stored, 'question_completed')).toEqual([{ requestId: q.requestId, elicitationId: q.question.mode === 'url' ? q.question.elicitationId : '' }]);
  });

  it('flags a deceptive host; a headless host opens nothing itself', async () => {
    const w = await start();
    const id = await watched(w);
    await send(w, id, '/elicit url https://xn--80ak6aa92e.com/login');
    const q = await asked(w, id);
    expect(q.question).toMatchObject({ mode: 'url', target: { displayHost: 'аррӏе.com', deceptive: true, warnings: expect.arrayContaining([expect.objectContaining({ kind: 'lookalike' })]) } });
    expect((await w.call('host:info', {})).canOpenExternal).toBe(false);
    await w.call('questions:answer', { requestId: q.requestId, sessionId: id, action: 'decline' });
    await w.waitForText(id, 'You declined to open the page.');
  });

  it('refuses a page that may not be opened, with the reason', async () => {
    const w = await start();
    const id = await watched(w);
    await send(w, id, '/elicit url file:///etc/passwd');
    await w.waitForText(id, 'The client refused the question:');
    expect(w.agentText(id)).toContain('(error -32602)');
    expect(payloads(h!.stored(id), 'notice')[0]?.text).toMatch(/Only web addresses/);
  });
});

describe('questions follow the permission gate', () => {
  it('with nobody watching, the deadline answers cancel; an answer after it is refused and changes nothing', async () => {
    const clock = new FakeClock();
    const w = await start({ clock, settings: { permissionTimeoutMs: 30_000, idleTimeoutMs: 0 } });
    const { id } = await w.call('sessions:create', { cwd: h!.dataDir }); // never watched
    await send(w, id, '/elicit');
    await w.waitFor('session:updated', (v) => v.id === id && v.pendingQuestions === 1);
    const [pending] = h!.host.questions.pendingFor(id);
    expect(pending?.deadlineAt).toBe(clock.now() + 30_000);
    await clock.advance(29_999);
    expect(h!.host.questions.countFor(id)).toBe(1);
    await clock.advance(1);
    expect(h!.host.questions.countFor(id)).toBe(0);
    await w.call('sessions:switch', { sessionId: id });
    await w.waitForText(id, 'The question was cancelled.');
    await expect(w.call('questions:answer', { requestId: pending!.requestId, sessionId: id, action: 'accept', content: ANSWER })).rejects.toMatchObject({ code: 'question_answered' });
    expect(payloads(h!.stored(id), 'question_answered')).toEqual([
      expect.objectContaining({ action: 'cancel', decider: { kind: 'timeout' }, reason: expect.stringMatching(/no window watched this session for 30 s/) }),
    ]);
  });

  it('survives switching away and back, and a new window (a reload): the switch answer carries it', async () => {
    const w = await start();
    const id = await watched(w);
    await send(w, id, '/elicit');
    const q = await asked(w, id);
    const { id: elsewhere } = await w.call('sessions:create', { cwd: h!.dataDir });
    await w.call('sessions:switch', { sessionId: elsewhere, fromSessionId: id });
    const back = await w.call('sessions:switch', { sessionId: id, fromSessionId: elsewhere });
    expect(back.pendingQuestions.map((p) => p.requestId)).toEqual([q.requestId]);
    expect(back.session.pendingQuestions).toBe(1);
    w.dispose();
    const reloaded = h!.window('window 1 again');
    const again = await reloaded.call('sessions:switch', { sessionId: id });
    expect(again.pendingQuestions).toEqual([expect.objectContaining({ requestId: q.requestId, question: q.question })]);
    await reloaded.call('questions:answer', { requestId: q.requestId, sessionId: id, action: 'accept', content: ANSWER });
    await reloaded.waitForText(id, 'You answered:');
  });

  it.each([
    ['Stop', 'turn_cancelled', (w: TestWindow, id: string) => w.call('prompt:cancel', { sessionId: id })],
    ['close', 'closed_by_user', (w: TestWindow, id: string) => w.call('sessions:close', { sessionId: id })],
    ['agent crash', 'agent_exited', (_w: TestWindow, id: string) => Promise.resolve(h!.host.pool.brokerOf(id)?.child.kill('SIGKILL'))],
  ] as const)('%s answers it cancel and withdraws it from the windows', async (_what, reason, act) => {
    const w = await start();
    const id = await watched(w);
    await send(w, id, '/elicit');
    const q = await asked(w, id);
    await act(w, id);
    await w.waitFor('question:resolved', (r) => r.requestId === q.requestId);
    expect(h!.host.questions.countFor(id)).toBe(0);
    expect(payloads(h!.stored(id), 'question_answered')).toEqual([expect.objectContaining({ action: 'cancel', decider: { kind: 'cancel', reason } })]);
  });

  it('quit answers it cancel; a question left pending by a host that died is closed at the next start', async () => {
    const w = await start();
    const id = await watched(w);
    await send(w, id, '/elicit');
    const q = await asked(w, id);
    await h!.restart();
    const after = h!.stored(id);
    expect(payloads(after, 'question_answered')).toEqual([expect.objectContaining({ requestId: q.requestId, action: 'cancel', decider: { kind: 'cancel', reason: 'host_shutdown' } })]);

    // A host that died with a question pending: its row is still pending at the next start.
    await h!.restart({}, () => {
      const db = new Database(h!.database);
      db.prepare(`INSERT INTO questions (request_id, session_id, question, status, created_at) VALUES ('left-over', ?, ?, 'pending', 1)`).run(id, JSON.stringify(q.question));
      db.close();
    });
    expect(payloads(h!.stored(id), 'question_answered').at(-1)).toMatchObject({ requestId: 'left-over', action: 'cancel', decider: { kind: 'cancel', reason: 'host_restart' } });
  });

  it('a question the agent withdraws ($/cancel_request) leaves every window and is answered -32800', async () => {
    const w = await start();
    const other = h!.window('window 2');
    const id = await watched(w);
    await other.call('sessions:switch', { sessionId: id });
    await send(w, id, '/cancel-request elicit 300');
    const q = await asked(w, id);
    await asked(other, id);
    await w.waitFor('question:resolved', (r) => r.requestId === q.requestId);
    await other.waitFor('question:resolved', (r) => r.requestId === q.requestId);
    await w.waitForText(id, 'Withdrew the elicit request with $/cancel_request; the client answered error -32800');
    expect(payloads(h!.stored(id), 'question_answered')).toEqual([expect.objectContaining({ action: 'cancel', decider: { kind: 'cancel', reason: 'agent_withdrew' } })]);
  });
});
