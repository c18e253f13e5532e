import { describe, expect, it } from 'vitest';
import {
  MASKED,
  contentFromInputs,
  initialInputs,
  isDate,
  isDateTime,
  isEmail,
  isAbsoluteUri,
  maskAnswer,
  normaliseElicitationSchema,
  secretFields,
  validateAnswer,
  type AnswerResult,
  type ElicitationFormT,
} from './elicitation';

function form(raw: unknown): ElicitationFormT {
  const result = normaliseElicitationSchema(raw);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const FORM = form({
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    region: { type: 'string', enum: ['eu', 'us'] },
    size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }] },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    count: { type: 'integer', minimum: 1 },
    ok: { type: 'boolean' },
    password: { type: 'string' },
  },
  required: ['name', 'region', 'tags', 'count', 'ok'],
});

const MINIMAL = { name: 'Ann', region: 'eu', tags: ['a'], count: 1, ok: false };

function reasons(result: AnswerResult): Record<string, string> {
  if (result.ok) throw new Error('expected the answer to be refused');
  return result.error.fields;
}

describe('validateAnswer', () => {
  it('accepts a complete answer and returns exactly its fields', () => {
    const full = {
      ...MINIMAL,
      email: 'ann@example.com',
      site: 'https://example.com/x',
      day: '2024-02-29',
      at: '2024-02-29T23:59:60.5+01:00',
      code: 'ABC',
      size: 's',
      ratio: 0.25,
      password: 'hunter2',
    };
    expect(validateAnswer(FORM, full)).toEqual({ ok: true, value: full });
    expect(validateAnswer(FORM, MINIMAL)).toEqual({ ok: true, value: MINIMAL });
  });

  it('says Required beside each missing required field; an empty box or empty list is not an answer', () => {
    expect(reasons(validateAnswer(FORM, {}))).toEqual({ name: 'Required', region: 'Required', tags: 'Required', count: 'Required', ok: 'Required' });
    expect(reasons(validateAnswer(FORM, { ...MINIMAL, name: '', region: '', tags: [] }))).toEqual({ name: 'Required', region: 'Required', tags: 'Required' });
    expect(reasons(validateAnswer(FORM, undefined))).toHaveProperty('name', 'Required');
  });

  it('leaves optional fields left empty out of the answer', () => {
    expect(validateAnswer(FORM, { ...MINIMAL, email: '', ratio: null })).toEqual({ ok: true, value: MINIMAL });
  });

  it('gives a reason per field for each broken constraint', () => {
    const bad = {
      name: 'A',
      email: 'ann@',
      site: 'example.com',
      day: '2023-02-29',
      at: '2024-01-01T10:00:00',
      code: 'abc',
      region: 'mars',
      size: 'xl',
      tags: ['a', 'b', 'c'],
      ratio: 1.5,
      count: 0.5,
      ok: 'yes',
    };
    expect(reasons(validateAnswer(FORM, bad))).toEqual({
      name: 'Must be at least 2 characters',
      email: 'Must be an email address',
      site: 'Must be a full address (such as https://example.com)',
      day: 'Must be a date (YYYY-MM-DD)',
      at: 'Must be a date and time (YYYY-MM-DDTHH:MM:SS with a time zone)',
      code: 'Must match the pattern ^[A-Z]{3}$',
      region: 'Choose one of the options',
      size: 'Choose one of the options',
      tags: 'Choose at most 2',
      ratio: 'Must be 1 or less',
      count: 'Must be a whole number',
      ok: 'Must be yes or no',
    });
    expect(reasons(validateAnswer(FORM, { ...MINIMAL, name: 'toolong', count: 0, tags: ['a', 'a'] }))).toEqual({
      name: 'Must be at most 5 characters',
      count: 'Must be 1 or more',
      tags: 'An option is chosen twice',
    });
    expect(reasons(validateAnswer(FORM, { ...MINIMAL, tags: ['z'], ratio: -1, name: 7 }))).toEqual({
      tags: '"z" is not one of the options',
      ratio: 'Must be 0 or more',
      name: 'Must be text',
    });
    expect(reasons(validateAnswer(FORM, { ...MINIMAL, ratio: Number.NaN, count: '3' }))).toEqual({ ratio: 'Must be a number', count: 'Must be a whole number' });
  });

  it('counts length in characters a person sees, not UTF-16 units', () => {
    const f = form({ properties: { e: { type: 'string', maxLength: 2 } } });
    expect(validateAnswer(f, { e: '😀😀' }).ok).toBe(true);
    expect(reasons(validateAnswer(f, { e: '😀😀😀' }))).toEqual({ e: 'Must be at most 2 characters' });
  });

  it('refuses keys the form does not have, and an answer that is not an object', () => {
    expect(validateAnswer(FORM, { ...MINIMAL, extra: 1 })).toEqual({ ok: false, error: { fields: {}, form: ['"extra" is not a field of this form'] } });
    expect(validateAnswer(FORM, ['x'])).toEqual({ ok: false, error: { fields: {}, form: ['the answer is not a set of fields'] } });
    expect(validateAnswer(FORM, 'x')).toEqual({ ok: false, error: { fields: {}, form: ['the answer is not a set of fields'] } });
  });

  it('does not read inherited properties as answers', () => {
    const f = form({ properties: { toString: { type: 'string' } }, required: ['toString'] });
    expect(reasons(validateAnswer(f, {}))).toEqual({ toString: 'Required' });
  });

  it('does not run a pattern that could backtrack without end, and skips a pattern on a very long answer', () => {
    const f = form({ properties: { evil: { type: 'string', pattern: '^(a+)+$' }, long: { type: 'string', pattern: '^a+$' } } });
    const started = performance.now();
    expect(validateAnswer(f, { evil: `${'a'.repeat(40)}!`, long: `${'a'.repeat(300)}!` }).ok).toBe(true);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe('formats', () => {
  it('email: what <input type=email> accepts', () => {
    for (const s of ['a@b', 'first.last+tag@sub.example.co.uk']) expect(isEmail(s), s).toBe(true);
    for (const s of ['a', 'a@', '@b', 'a b@c', 'a@b..c', 'a@-b.com']) expect(isEmail(s), s).toBe(false);
  });

  it('uri: absolute, with a scheme, no spaces', () => {
    for (const s of ['https://example.com', 'mailto:a@b.c', 'urn:isbn:0451450523']) expect(isAbsoluteUri(s), s).toBe(true);
    for (const s of ['example.com', '/relative', 'https://exa mple.com', '']) expect(isAbsoluteUri(s), s).toBe(false);
  });

  it('date: a real calendar day', () => {
    for (const s of ['2024-02-29', '2000-02-29', '1999-12-31']) expect(isDate(s), s).toBe(true);
    for (const s of ['2023-02-29', '1900-02-29', '2024-13-01', '2024-04-31', '2024-1-1', '2024-01-01T00:00:00Z']) expect(isDate(s), s).toBe(false);
  });

  it('date-time: RFC 3339 with seconds and a zone', () => {
    for (const s of ['2024-01-01T00:00:00Z', '2024-01-01t10:20:30.123-05:30', '2016-12-31T23:59:60Z']) expect(isDateTime(s), s).toBe(true);
    for (const s of ['2024-01-01T00:00Z', '2024-01-01 00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T00:00:00+25:00', '2024-01-01T00:00:00']) expect(isDateTime(s), s).toBe(false);
  });
});

describe('form inputs', () => {
  it('starts each input from its default', () => {
    const f = form({
      properties: {
        t: { type: 'string', default: 'x' },
        c: { type: 'string', enum: ['a'] },
        n: { type: 'integer', default: 3 },
        b: { type: 'boolean' },
        m: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['b'] },
      },
    });
    expect(initialInputs(f)).toEqual({ t: 'x', c: '', n: '3', b: false, m: ['b'] });
  });

  it('turns input text into numbers where it reads as one, keeps the rest for the check to refuse', () => {
    const inputs = { ...MINIMAL, count: ' 4 ', ratio: 'half', email: '' };
    const content = contentFromInputs(FORM, inputs);
    expect(content).toEqual({ ...MINIMAL, count: 4, ratio: 'half' });
    expect(reasons(validateAnswer(FORM, content))).toEqual({ ratio: 'Must be a number' });
  });
});

describe('masking', () => {
  it('lists the secret fields and masks only their answers', () => {
    expect(secretFields(FORM)).toEqual(['password']);
    expect(maskAnswer(FORM, { name: 'Ann', password: 'hunter2' })).toEqual({ name: 'Ann', password: MASKED });
  });
});
