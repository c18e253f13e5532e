/**
 * A question from an agent (ACP `elicitation/create`, form mode) as the window renders it.
 *
 * ACP's `requestedSchema` is a restricted JSON Schema: an object whose properties are strings
 * (formats `email`, `uri`, `date`, `date-time`; min/max length; a pattern), single-select enums
 * (`enum`, or titled `oneOf` choices), multi-select arrays (`items.enum` or titled
 * `items.anyOf`), numbers and integers with inclusive bounds, and booleans; each with a title,
 * description and default; `required` names the fields that must be answered.
 * `normaliseElicitationSchema` turns what an agent sent into `ElicitationForm`, a flat list of
 * fields the renderer draws without re-reading JSON Schema, or says exactly what is wrong. A
 * kind it does not know (a future or `_`-prefixed property type) is refused, not guessed at:
 * a form that silently drops a field would send the agent an answer it did not ask for.
 *
 * Secret fields: ACP has no way to mark one (its string formats are the four above; the
 * SDK 2.4 refuses any other and drops unknown keys such as JSON Schema's `writeOnly`). A
 * field is treated as secret, so its answer is masked in the transcript and its input hidden,
 * when its `_meta` says `"secret": true` (the hint Switchboard documents for agents), when an
 * agent that bypasses the SDK sends `format: "password"` or `writeOnly: true`, or when its
 * name or title reads like a credential (password, token, API key, …). Masking more than
 * needed costs only a hidden value in the transcript; masking less would leak one.
 */
import { z } from 'zod';
import { compilePattern, isSafePattern } from './elicitation-pattern';

export const TEXT_FORMATS = ['email', 'uri', 'date', 'date-time'] as const;
export const TextFormat = z.enum(TEXT_FORMATS);

/** Limits that keep a hostile schema from costing the host or the window more than a form's worth. */
export const ELICITATION_LIMITS = {
  fields: 100,
  options: 500,
  nameLength: 128,
  textLength: 4_000,
  patternLength: 500,
} as const;

export const ElicitationOption = z.object({
  value: z.string(),
  label: z.string(),
  description: z.string().optional(),
});

const fieldBase = {
  /** The property name: the key of the answer's `content`. */
  name: z.string(),
  /** The property's `title`, else its name. */
  label: z.string(),
  description: z.string().optional(),
  required: z.boolean(),
};

export const TextField = z.object({
  kind: z.literal('text'),
  ...fieldBase,
  format: TextFormat.optional(),
  minLength: z.number().int().nonnegative().optional(),
  maxLength: z.number().int().nonnegative().optional(),
  /** A JSON Schema (ECMAScript) pattern the answer must match somewhere, as JSON Schema reads it. */
  pattern: z.string().optional(),
  /**
   * False when the pattern could backtrack for a very long time (nested or alternated
   * repetition, back-references): it is shown as a hint but not enforced, so an agent's
   * regular expression can never stall the host that checks the answer.
   */
  patternEnforced: z.boolean(),
  default: z.string().optional(),
  secret: z.boolean(),
});

export const ChoiceField = z.object({
  kind: z.literal('choice'),
  ...fieldBase,
  options: z.array(ElicitationOption),
  default: z.string().optional(),
});

export const MultiChoiceField = z.object({
  kind: z.literal('multi_choice'),
  ...fieldBase,
  options: z.array(ElicitationOption),
  minItems: z.number().int().nonnegative().optional(),
  maxItems: z.number().int().nonnegative().optional(),
  default: z.array(z.string()).optional(),
});

export const NumberField = z.object({
  kind: z.literal('number'),
  ...fieldBase,
  integer: z.boolean(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});

export const BooleanField = z.object({
  kind: z.literal('boolean'),
  ...fieldBase,
  default: z.boolean().optional(),
});

export const ElicitationField = z.discriminatedUnion('kind', [TextField, ChoiceField, MultiChoiceField, NumberField, BooleanField]);

/** A form, in the order the agent listed its properties. */
export const ElicitationForm = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  fields: z.array(ElicitationField),
});

export type ElicitationOptionT = z.output<typeof ElicitationOption>;
export type TextFieldT = z.output<typeof TextField>;
export type ChoiceFieldT = z.output<typeof ChoiceField>;
export type MultiChoiceFieldT = z.output<typeof MultiChoiceField>;
export type NumberFieldT = z.output<typeof NumberField>;
export type BooleanFieldT = z.output<typeof BooleanField>;
export type ElicitationFieldT = z.output<typeof ElicitationField>;
export type ElicitationFormT = z.output<typeof ElicitationForm>;

/** What is wrong with a schema: every problem, each with the path to it (`properties.age.minimum`). */
export type SchemaIssue = { path: string; message: string };
export type SchemaError = { message: string; issues: SchemaIssue[] };
export type NormaliseResult = { ok: true; value: ElicitationFormT } | { ok: false; error: SchemaError };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** ACP: an omitted key and `null` mean the same. */
const present = (v: unknown): boolean => v !== undefined && v !== null;

/** Names and titles that read like a credential: their answers are masked. */
const SECRET_WORDS = /pass(word|phrase|code)?|secret|token|api[\s_-]?key|private[\s_-]?key|credential|\bpin\b|\botp\b|\btotp\b|\b2fa\b/i;

/** Turns an agent's `requestedSchema` into a form, or says what is wrong with it. */
export function normaliseElicitationSchema(raw: unknown): NormaliseResult {
  const issues: SchemaIssue[] = [];
  const issue = (path: string, message: string): void => {
    issues.push({ path, message });
  };
  const fail = (): NormaliseResult => ({
    ok: false,
    error: { message: `The agent's form is malformed: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`, issues },
  });

  if (!isObj(raw)) {
    issue('', 'the schema is not an object');
    return fail();
  }
  if (present(raw.type) && raw.type !== 'object') issue('type', `must be "object", not ${describe(raw.type)}`);
  const title = optionalText(raw, 'title', '', issue);
  const description = optionalText(raw, 'description', '', issue);

  const properties = present(raw.properties) ? raw.properties : {};
  if (!isObj(properties)) {
    issue('properties', 'must be an object of fields');
    return fail();
  }
  const names = Object.keys(properties);
  if (names.length > ELICITATION_LIMITS.fields) issue('properties', `has ${names.length} fields; at most ${ELICITATION_LIMITS.fields} are shown`);

  const required = new Set<string>();
  if (present(raw.required)) {
    if (!Array.isArray(raw.required) || !raw.required.every((r) => typeof r === 'string')) issue('required', 'must be a list of field names');
    else
      for (const name of raw.required as string[]) {
        if (!Object.hasOwn(properties, name)) issue('required', `names "${name}", which is not a field`);
        required.add(name);
      }
  }

  const fields: ElicitationFieldT[] = [];
  for (const name of names.slice(0, ELICITATION_LIMITS.fields)) {
    const path = `properties.${name}`;
    if (name === '' || name.length > ELICITATION_LIMITS.nameLength) issue(path, `a field name must have 1 to ${ELICITATION_LIMITS.nameLength} characters`);
    const field = normaliseField(name, properties[name], required.has(name), path, issue);
    if (field) fields.push(field);
  }
  if (issues.length > 0) return fail();
  return {
    ok: true,
    value: { ...(title === undefined ? {} : { title }), ...(description === undefined ? {} : { description }), fields },
  };
}

type Issue = (path: string, message: string) => void;

function normaliseField(name: string, raw: unknown, required: boolean, path: string, issue: Issue): ElicitationFieldT | undefined {
  if (!isObj(raw)) {
    issue(path, 'must be an object describing the field');
    return undefined;
  }
  const title = optionalText(raw, 'title', path, issue);
  const description = optionalText(raw, 'description', path, issue);
  const base = { name, label: title ?? name, ...(description === undefined ? {} : { description }), required };
  switch (raw.type) {
    case 'string':
      return present(raw.enum) || present(raw.oneOf) ? choiceField(base, raw, path, issue) : textField(base, raw, path, issue);
    case 'number':
    case 'integer':
      return numberField(base, raw, raw.type === 'integer', path, issue);
    case 'boolean': {
      if (present(raw.default) && typeof raw.default !== 'boolean') issue(`${path}.default`, 'must be true or false');
      return { kind: 'boolean', ...base, ...(typeof raw.default === 'boolean' ? { default: raw.default } : {}) };
    }
    case 'array':
      return multiChoiceField(base, raw, path, issue);
    default:
      issue(`${path}.type`, raw.type === undefined ? 'is missing' : `${describe(raw.type)} is not a kind of field Switchboard can show`);
      return undefined;
  }
}

type Base = { name: string; label: string; description?: string; required: boolean };

function textField(base: Base, raw: Obj, path: string, issue: Issue): TextFieldT | undefined {
  const minLength = count(raw, 'minLength', path, issue);
  const maxLength = count(raw, 'maxLength', path, issue);
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) issue(path, `minLength ${minLength} is more than maxLength ${maxLength}`);
  let format: TextFieldT['format'];
  let secret = SECRET_WORDS.test(base.name) || SECRET_WORDS.test(base.label) || raw.writeOnly === true || metaSecret(raw);
  if (present(raw.format)) {
    if (raw.format === 'password') secret = true;
    else if (typeof raw.format === 'string' && (TEXT_FORMATS as readonly string[]).includes(raw.format)) format = raw.format as TextFieldT['format'];
    else issue(`${path}.format`, `${describe(raw.format)} is not one of ${TEXT_FORMATS.join(', ')}`);
  }
  let pattern: string | undefined;
  let patternEnforced = false;
  if (present(raw.pattern)) {
    if (typeof raw.pattern !== 'string' || raw.pattern.length > ELICITATION_LIMITS.patternLength) {
      issue(`${path}.pattern`, `must be a regular expression of at most ${ELICITATION_LIMITS.patternLength} characters`);
    } else if (compilePattern(raw.pattern) === undefined) {
      issue(`${path}.pattern`, 'is not a valid regular expression');
    } else {
      pattern = raw.pattern;
      patternEnforced = isSafePattern(raw.pattern);
    }
  }
  const field: TextFieldT = {
    kind: 'text',
    ...base,
    ...(format === undefined ? {} : { format }),
    ...(minLength === undefined ? {} : { minLength }),
    ...(maxLength === undefined ? {} : { maxLength }),
    ...(pattern === undefined ? {} : { pattern }),
    patternEnforced,
    secret,
  };
  if (present(raw.default)) {
    if (typeof raw.default !== 'string') issue(`${path}.default`, 'must be text');
    else field.default = raw.default;
  }
  return field;
}

function choiceField(base: Base, raw: Obj, path: string, issue: Issue): ChoiceFieldT | undefined {
  if (present(raw.enum) && present(raw.oneOf)) {
    issue(path, 'has both enum and oneOf; a choice is one or the other');
    return undefined;
  }
  const options = present(raw.enum) ? plainOptions(raw.enum, `${path}.enum`, issue) : titledOptions(raw.oneOf, `${path}.oneOf`, issue);
  if (!options) return undefined;
  const field: ChoiceFieldT = { kind: 'choice', ...base, options };
  if (present(raw.default)) {
    if (typeof raw.default !== 'string' || !options.some((o) => o.value === raw.default)) issue(`${path}.default`, `${describe(raw.default)} is not one of the choices`);
    else field.default = raw.default;
  }
  return field;
}

function multiChoiceField(base: Base, raw: Obj, path: string, issue: Issue): MultiChoiceFieldT | undefined {
  const items = raw.items;
  if (!isObj(items)) {
    issue(`${path}.items`, 'must describe the choices (items.enum or items.anyOf)');
    return undefined;
  }
  let options: ElicitationOptionT[] | undefined;
  if (present(items.anyOf)) options = titledOptions(items.anyOf, `${path}.items.anyOf`, issue);
  else if (items.type === 'string' || (items.type === undefined && present(items.enum))) options = plainOptions(items.enum, `${path}.items.enum`, issue);
  else {
    issue(`${path}.items.type`, `${describe(items.type)} is not a kind of choice Switchboard can show`);
    return undefined;
  }
  if (!options) return undefined;
  const minItems = count(raw, 'minItems', path, issue);
  const maxItems = count(raw, 'maxItems', path, issue);
  if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) issue(path, `minItems ${minItems} is more than maxItems ${maxItems}`);
  if (minItems !== undefined && minItems > options.length) issue(`${path}.minItems`, `asks for ${minItems} of only ${options.length} choices`);
  const field: MultiChoiceFieldT = {
    kind: 'multi_choice',
    ...base,
    options,
    ...(minItems === undefined ? {} : { minItems }),
    ...(maxItems === undefined ? {} : { maxItems }),
  };
  if (present(raw.default)) {
    const known = new Set(options.map((o) => o.value));
    if (!Array.isArray(raw.default) || !raw.default.every((v) => typeof v === 'string' && known.has(v))) {
      issue(`${path}.default`, 'must list some of the choices');
    } else field.default = [...new Set(raw.default as string[])];
  }
  return field;
}

function numberField(base: Base, raw: Obj, integer: boolean, path: string, issue: Issue): NumberFieldT | undefined {
  const bound = (key: 'minimum' | 'maximum' | 'default'): number | undefined => {
    const v = raw[key];
    if (!present(v)) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || (integer && !Number.isInteger(v))) {
      issue(`${path}.${key}`, `must be ${integer ? 'a whole number' : 'a number'}, not ${describe(v)}`);
      return undefined;
    }
    return v;
  };
  const minimum = bound('minimum');
  const maximum = bound('maximum');
  const dflt = bound('default');
  if (minimum !== undefined && maximum !== undefined && minimum > maximum) issue(path, `minimum ${minimum} is more than maximum ${maximum}`);
  if (dflt !== undefined && ((minimum !== undefined && dflt < minimum) || (maximum !== undefined && dflt > maximum))) {
    issue(`${path}.default`, `${dflt} is outside the field's bounds`);
  }
  return {
    kind: 'number',
    ...base,
    integer,
    ...(minimum === undefined ? {} : { minimum }),
    ...(maximum === undefined ? {} : { maximum }),
    ...(dflt === undefined ? {} : { default: dflt }),
  };
}

function plainOptions(raw: unknown, path: string, issue: Issue): ElicitationOptionT[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every((v) => typeof v === 'string')) {
    issue(path, 'must be a non-empty list of text values');
    return undefined;
  }
  return checkOptions(
    (raw as string[]).map((value) => ({ value, label: value })),
    path,
    issue,
  );
}

function titledOptions(raw: unknown, path: string, issue: Issue): ElicitationOptionT[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) {
    issue(path, 'must be a non-empty list of { const, title } choices');
    return undefined;
  }
  const options: ElicitationOptionT[] = [];
  raw.forEach((o: unknown, i) => {
    if (!isObj(o) || typeof o.const !== 'string' || typeof o.title !== 'string') {
      issue(`${path}.${i}`, 'must be { const: text, title: text }');
      return;
    }
    const description = typeof o.description === 'string' ? o.description : undefined;
    options.push({ value: o.const, label: o.title, ...(description === undefined ? {} : { description }) });
  });
  return options.length === raw.length ? checkOptions(options, path, issue) : undefined;
}

function checkOptions(options: ElicitationOptionT[], path: string, issue: Issue): ElicitationOptionT[] | undefined {
  if (options.length > ELICITATION_LIMITS.options) {
    issue(path, `has ${options.length} choices; at most ${ELICITATION_LIMITS.options} are shown`);
    return undefined;
  }
  const seen = new Set<string>();
  for (const o of options) {
    if (seen.has(o.value)) {
      issue(path, `lists "${o.value}" twice`);
      return undefined;
    }
    seen.add(o.value);
  }
  return options;
}

function optionalText(raw: Obj, key: 'title' | 'description', path: string, issue: Issue): string | undefined {
  const v = raw[key];
  if (!present(v)) return undefined;
  if (typeof v !== 'string' || v.length > ELICITATION_LIMITS.textLength) {
    issue(path ? `${path}.${key}` : key, `must be text of at most ${ELICITATION_LIMITS.textLength} characters`);
    return undefined;
  }
  return v;
}

function count(raw: Obj, key: 'minLength' | 'maxLength' | 'minItems' | 'maxItems', path: string, issue: Issue): number | undefined {
  const v = raw[key];
  if (!present(v)) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    issue(`${path}.${key}`, `must be a whole number of 0 or more, not ${describe(v)}`);
    return undefined;
  }
  return v;
}

function metaSecret(raw: Obj): boolean {
  return isObj(raw._meta) && raw._meta.secret === true;
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : String(v);
}
