import { describe, expect, it } from 'vitest';
import { ElicitationQuestion, parseElicitationRequest, type ElicitationRequestResult } from './elicitation';

const refusal = (r: ElicitationRequestResult): string => (r.ok ? 'accepted' : r.error.message);

describe('parseElicitationRequest', () => {
  it('takes a session-scoped form question, normalised', () => {
    const r = parseElicitationRequest({ sessionId: 's1', toolCallId: 't1', mode: 'form', message: 'Which region?', requestedSchema: { properties: { region: { type: 'string', enum: ['eu'] } } } });
    expect(r).toEqual({
      ok: true,
      value: {
        scope: { sessionId: 's1', toolCallId: 't1' },
        question: { mode: 'form', message: 'Which region?', form: { fields: [{ kind: 'choice', name: 'region', label: 'region', required: false, options: [{ value: 'eu', label: 'eu' }] }] } },
      },
    });
    expect(r.ok && ElicitationQuestion.parse(r.value.question)).toEqual(r.ok && r.value.question);
  });

  it('takes a request-scoped URL question with its checked target', () => {
    const r = parseElicitationRequest({ requestId: 7, mode: 'url', message: 'Sign in', elicitationId: 'e1', url: 'https://login.example.com/x' });
    expect(r.ok && r.value.scope).toEqual({ requestId: 7 });
    expect(r.ok && r.value.question).toMatchObject({ mode: 'url', elicitationId: 'e1', target: { displayHost: 'login.example.com', deceptive: false } });
    // A deceptive host is shown, with its warnings, not refused.
    const deceptive = parseElicitationRequest({ sessionId: 's', mode: 'url', message: 'm', elicitationId: 'e', url: 'https://github.com@evil.example/' });
    expect(deceptive.ok && deceptive.value.question.mode === 'url' && deceptive.value.question.target.deceptive).toBe(true);
  });

  it('refuses a malformed form with its issues', () => {
    const r = parseElicitationRequest({ sessionId: 's', mode: 'form', message: 'm', requestedSchema: { properties: { c: { type: '_demo/colour' } }, required: ['missing'] } });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.issues.map((i) => i.path)).toEqual(['required', 'properties.c.type']);
  });

  it('refuses URLs that may not be opened, unknown modes, and requests without scope or message', () => {
    expect(refusal(parseElicitationRequest({ sessionId: 's', mode: 'url', message: 'm', elicitationId: 'e', url: 'javascript:alert(1)' }))).toBe(
      'The page cannot be opened: Only web addresses (http, https) are opened, not "javascript:".',
    );
    expect(refusal(parseElicitationRequest({ sessionId: 's', mode: 'url', message: 'm', url: 'https://x.example' }))).toBe('A URL question needs an elicitationId.');
    expect(refusal(parseElicitationRequest({ sessionId: 's', mode: '_vendor/voice', message: 'm' }))).toBe('Switchboard asks questions as forms or URLs, not "_vendor/voice".');
    expect(refusal(parseElicitationRequest({ mode: 'form', message: 'm', requestedSchema: {} }))).toBe('The question names neither a session nor a request.');
    expect(refusal(parseElicitationRequest({ sessionId: 's', mode: 'form', requestedSchema: {} }))).toBe('The question has no message.');
    expect(refusal(parseElicitationRequest({ sessionId: 's', mode: 'form', message: 'x'.repeat(10_001), requestedSchema: {} }))).toBe("The question's message is longer than 10000 characters.");
    expect(refusal(parseElicitationRequest(null))).toBe('The question is not an object.');
  });
});
