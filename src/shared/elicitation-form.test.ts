import { describe, expect, it } from 'vitest';
import { ElicitationForm, isSafePattern, normaliseElicitationSchema, type ElicitationFormT, type NormaliseResult } from './elicitation';

/** A schema with every kind of field ACP defines, as an agent sends it. */
const EVERY_KIND = {
  type: 'object',
  title: 'Deploy settings',
  description: 'Where and how to deploy',
  properties: {
    name: { type: 'string', title: 'Project name', minLength: 2, maxLength: 20, default: 'demo' },
    email: { type: 'string', format: 'email', description: 'For the receipt' },
    homepage: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    region: { type: 'string', enum: ['eu', 'us'], default: 'eu' },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small', description: '1 CPU' },
        { const: 'l', title: 'Large' },
      ],
    },
    features: { type: 'array', items: { type: 'string', enum: ['logs', 'metrics', 'traces'] }, minItems: 1, maxItems: 2, default: ['logs'] },
    owners: { type: 'array', items: { anyOf: [{ const: 'ann', title: 'Ann' }, { const: 'bo', title: 'Bo' }] } },
    ratio: { type: 'number', minimum: 0, maximum: 1, default: 0.5 },
    replicas: { type: 'integer', minimum: 1, maximum: 10 },
    confirm: { type: 'boolean', title: 'I understand', default: false },
  },
  required: ['name', 'email', 'region', 'replicas'],
};

function form(raw: unknown): ElicitationFormT {
  const result = normaliseElicitationSchema(raw);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function issues(result: NormaliseResult): string[] {
  if (result.ok) throw new Error('expected the schema to be refused');
  return result.error.issues.map((i) => `${i.path}: ${i.message}`);
}

const one = (prop: unknown): NormaliseResult => normaliseElicitationSchema({ type: 'object', properties: { f: prop } });

describe('normaliseElicitationSchema: every field kind', () => {
  it('turns each ACP property kind into a field, in the agent order, with titles, defaults and required', () => {
    const f = form(EVERY_KIND);
    expect(ElicitationForm.parse(f)).toEqual(f);
    expect(f.title).toBe('Deploy settings');
    expect(f.description).toBe('Where and how to deploy');
    expect(f.fields.map((x) => [x.name, x.kind, x.required])).toEqual([
      ['name', 'text', true],
      ['email', 'text', true],
      ['homepage', 'text', false],
      ['day', 'text', false],
      ['at', 'text', false],
      ['region', 'choice', true],
      ['size', 'choice', false],
      ['features', 'multi_choice', false],
      ['owners', 'multi_choice', false],
      ['ratio', 'number', false],
      ['replicas', 'number', true],
      ['confirm', 'boolean', false],
    ]);
    expect(f.fields[0]).toEqual({ kind: 'text', name: 'name', label: 'Project name', required: true, minLength: 2, maxLength: 20, default: 'demo', patternEnforced: false, secret: false });
    expect(f.fields[1]).toMatchObject({ label: 'email', description: 'For the receipt', format: 'email' });
    expect(f.fields.slice(2, 5).map((x) => (x.kind === 'text' ? x.format : undefined))).toEqual(['uri', 'date', 'date-time']);
    expect(f.fields[5]).toMatchObject({ options: [{ value: 'eu', label: 'eu' }, { value: 'us', label: 'us' }], default: 'eu' });
    expect(f.fields[6]).toMatchObject({ options: [{ value: 's', label: 'Small', description: '1 CPU' }, { value: 'l', label: 'Large' }] });
    expect(f.fields[7]).toMatchObject({ minItems: 1, maxItems: 2, default: ['logs'], options: [{ value: 'logs' }, { value: 'metrics' }, { value: 'traces' }] });
    expect(f.fields[8]).toMatchObject({ options: [{ value: 'ann', label: 'Ann' }, { value: 'bo', label: 'Bo' }] });
    expect(f.fields[9]).toMatchObject({ integer: false, minimum: 0, maximum: 1, default: 0.5 });
    expect(f.fields[10]).toMatchObject({ integer: true, minimum: 1, maximum: 10 });
    expect(f.fields[11]).toMatchObject({ label: 'I understand', default: false });
  });

  it('reads null as absent, as ACP does, and accepts an empty form', () => {
    expect(form({ type: 'object', title: null, required: null, properties: { a: { type: 'string', title: null, minLength: null, default: null } } })).toEqual({
      fields: [{ kind: 'text', name: 'a', label: 'a', required: false, patternEnforced: false, secret: false }],
    });
    expect(form({})).toEqual({ fields: [] });
    expect(form({ type: 'object', properties: {} })).toEqual({ fields: [] });
  });

  it('keeps a pattern, enforced only when it cannot backtrack without end', () => {
    const f = form({ properties: { code: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' }, evil: { type: 'string', pattern: '^(a+)+$' } } });
    expect(f.fields[0]).toMatchObject({ pattern: '^[A-Z]{3}-\\d+$', patternEnforced: true });
    expect(f.fields[1]).toMatchObject({ pattern: '^(a+)+$', patternEnforced: false });
  });
});

describe('normaliseElicitationSchema: secret fields', () => {
  it('marks a field secret by its _meta hint, format password, writeOnly or a credential-like name', () => {
    const f = form({
      properties: {
        a: { type: 'string', _meta: { secret: true } },
        b: { type: 'string', format: 'password' },
        c: { type: 'string', writeOnly: true },
        apiKey: { type: 'string' },
        d: { type: 'string', title: 'Your password' },
        access_token: { type: 'string' },
        city: { type: 'string' },
        passport_country: { type: 'string', enum: ['x'] },
      },
    });
    expect(f.fields.map((x) => [x.name, x.kind === 'text' && x.secret])).toEqual([
      ['a', true],
      ['b', true],
      ['c', true],
      ['apiKey', true],
      ['d', true],
      ['access_token', true],
      ['city', false],
      ['passport_country', false],
    ]);
    // `format: "password"` marks the field; it is not a format the answer is checked against.
    expect(f.fields[1]).not.toHaveProperty('format');
  });
});

describe('normaliseElicitationSchema: malformed schemas are refused with what is wrong', () => {
  it('refuses what is not an object schema', () => {
    expect(issues(normaliseElicitationSchema(null))).toEqual([': the schema is not an object']);
    expect(issues(normaliseElicitationSchema([]))).toEqual([': the schema is not an object']);
    expect(issues(normaliseElicitationSchema({ type: 'array' }))).toEqual(['type: must be "object", not "array"']);
    expect(issues(normaliseElicitationSchema({ properties: [] }))).toEqual(['properties: must be an object of fields']);
  });

  it('names the message after the problems, each with its path', () => {
    const result = normaliseElicitationSchema({ properties: { age: { type: 'integer', minimum: 1.5 } } });
    expect(result).toEqual({
      ok: false,
      error: {
        message: "The agent's form is malformed: properties.age.minimum: must be a whole number, not 1.5",
        issues: [{ path: 'properties.age.minimum', message: 'must be a whole number, not 1.5' }],
      },
    });
  });

  it('refuses unknown or missing field kinds, custom ones included', () => {
    expect(issues(one({ type: 'object', properties: {} }))).toEqual(['properties.f.type: "object" is not a kind of field Switchboard can show']);
    expect(issues(one({ type: '_vendor/colour' }))).toEqual(['properties.f.type: "_vendor/colour" is not a kind of field Switchboard can show']);
    expect(issues(one({ title: 'no type' }))).toEqual(['properties.f.type: is missing']);
    expect(issues(one('string'))).toEqual(['properties.f: must be an object describing the field']);
    expect(issues(one({ type: 'array', items: { type: 'number', enum: [1] } }))).toEqual(['properties.f.items.type: "number" is not a kind of choice Switchboard can show']);
    expect(issues(one({ type: 'array' }))).toEqual(['properties.f.items: must describe the choices (items.enum or items.anyOf)']);
  });

  it('refuses required names that are not fields, and a required that is not a list', () => {
    expect(issues(normaliseElicitationSchema({ properties: { a: { type: 'string' } }, required: ['a', 'b'] }))).toEqual(['required: names "b", which is not a field']);
    expect(issues(normaliseElicitationSchema({ properties: {}, required: 'a' }))).toEqual(['required: must be a list of field names']);
  });

  it('refuses bad string constraints', () => {
    expect(issues(one({ type: 'string', minLength: -1 }))).toEqual(['properties.f.minLength: must be a whole number of 0 or more, not -1']);
    expect(issues(one({ type: 'string', minLength: 5, maxLength: 2 }))).toEqual(['properties.f: minLength 5 is more than maxLength 2']);
    expect(issues(one({ type: 'string', format: 'phone' }))).toEqual(['properties.f.format: "phone" is not one of email, uri, date, date-time']);
    expect(issues(one({ type: 'string', pattern: '(' }))).toEqual(['properties.f.pattern: is not a valid regular expression']);
    expect(issues(one({ type: 'string', pattern: 'a'.repeat(501) }))).toEqual(['properties.f.pattern: must be a regular expression of at most 500 characters']);
    expect(issues(one({ type: 'string', default: 3 }))).toEqual(['properties.f.default: must be text']);
    expect(issues(one({ type: 'string', title: 7 }))).toEqual(['properties.f.title: must be text of at most 4000 characters']);
  });

  it('refuses bad choices', () => {
    expect(issues(one({ type: 'string', enum: [] }))).toEqual(['properties.f.enum: must be a non-empty list of text values']);
    expect(issues(one({ type: 'string', enum: ['a', 1] }))).toEqual(['properties.f.enum: must be a non-empty list of text values']);
    expect(issues(one({ type: 'string', enum: ['a', 'a'] }))).toEqual(['properties.f.enum: lists "a" twice']);
    expect(issues(one({ type: 'string', enum: ['a'], oneOf: [{ const: 'a', title: 'A' }] }))).toEqual(['properties.f: has both enum and oneOf; a choice is one or the other']);
    expect(issues(one({ type: 'string', oneOf: [{ const: 'a' }] }))).toEqual(['properties.f.oneOf.0: must be { const: text, title: text }']);
    expect(issues(one({ type: 'string', enum: ['a'], default: 'b' }))).toEqual(['properties.f.default: "b" is not one of the choices']);
    expect(issues(one({ type: 'string', enum: Array.from({ length: 501 }, (_, i) => `o${i}`) }))).toEqual(['properties.f.enum: has 501 choices; at most 500 are shown']);
  });

  it('refuses bad multi-select constraints', () => {
    const items = { type: 'string', enum: ['a', 'b'] };
    expect(issues(one({ type: 'array', items, minItems: 2, maxItems: 1 }))).toEqual(['properties.f: minItems 2 is more than maxItems 1']);
    expect(issues(one({ type: 'array', items, minItems: 3 }))).toEqual(['properties.f.minItems: asks for 3 of only 2 choices']);
    expect(issues(one({ type: 'array', items, default: ['c'] }))).toEqual(['properties.f.default: must list some of the choices']);
    expect(issues(one({ type: 'array', items: { anyOf: [] } }))).toEqual(['properties.f.items.anyOf: must be a non-empty list of { const, title } choices']);
  });

  it('refuses bad number bounds and defaults', () => {
    expect(issues(one({ type: 'number', minimum: 'low' }))).toEqual(['properties.f.minimum: must be a number, not "low"']);
    expect(issues(one({ type: 'number', minimum: 2, maximum: 1 }))).toEqual(['properties.f: minimum 2 is more than maximum 1']);
    expect(issues(one({ type: 'integer', default: 0, minimum: 1 }))).toEqual(['properties.f.default: 0 is outside the field\'s bounds']);
    expect(issues(one({ type: 'number', maximum: Number.POSITIVE_INFINITY }))).toEqual(['properties.f.maximum: must be a number, not Infinity']);
    expect(issues(one({ type: 'boolean', default: 'yes' }))).toEqual(['properties.f.default: must be true or false']);
  });

  it('reports every problem at once, and refuses more fields than a form shows', () => {
    const result = normaliseElicitationSchema({ properties: { a: { type: 'x' }, b: { type: 'number', minimum: 'm' } }, required: ['c'] });
    expect(issues(result)).toHaveLength(3);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { type: 'boolean' }]));
    expect(issues(normaliseElicitationSchema({ properties: many }))).toEqual(['properties: has 101 fields; at most 100 are shown']);
  });

  it('handles field names that are object prototype keys as plain names', () => {
    const raw = JSON.parse('{"properties":{"__proto__":{"type":"string"},"constructor":{"type":"boolean"}},"required":["__proto__"]}') as unknown;
    const f = form(raw);
    expect(f.fields.map((x) => [x.name, x.required])).toEqual([
      ['__proto__', true],
      ['constructor', false],
    ]);
  });
});

describe('isSafePattern', () => {
  it('accepts simple anchored patterns', () => {
    for (const p of ['^[a-z]+$', '^\\d{3}-\\d{4}$', '^[A-Z]{2}\\d{2}[A-Z0-9]{1,30}$', '^(yes|no)$', '^[^@]+@[^@]+\\.[a-z]+$', '^(?:ab)?c$']) expect(isSafePattern(p), p).toBe(true);
  });

  it('refuses nested or alternated repetition, back-references and look-arounds', () => {
    for (const p of ['^(a+)+$', '(a|aa)*', '(\\w+\\s?)*$', '(a*){2,5}', '(x)\\1', '(?=a)a', '(?<!b)a', 'a+b+c+d+']) expect(isSafePattern(p), p).toBe(false);
  });
});
