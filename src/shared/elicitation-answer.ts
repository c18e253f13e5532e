/**
 * The person's answer to a form question: checked field by field (the window shows each
 * reason beside its field; the host checks again before it answers the agent, since a window
 * is not trusted), built from what form inputs hold, and masked for the transcript.
 */
import { z } from 'zod';
import type { ElicitationFieldT, ElicitationFormT, TextFieldT } from './elicitation-form';
import { compilePattern } from './elicitation-pattern';

/** ACP's `ElicitationContentValue`. */
export const ElicitationValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export const ElicitationContent = z.record(z.string(), ElicitationValue);
export type ElicitationValueT = z.output<typeof ElicitationValue>;
export type ElicitationContentT = z.output<typeof ElicitationContent>;

/** Why an answer was refused: one reason per field (by name), and reasons about the answer as a whole. */
export type AnswerError = { fields: Record<string, string>; form: string[] };
export type AnswerResult = { ok: true; value: ElicitationContentT } | { ok: false; error: AnswerError };

/** Shown in the transcript in place of a secret answer. */
export const MASKED = '••••••';

/** Answers longer than this are not run through an agent's pattern: the check's cost stays bounded. */
const PATTERN_CHECK_MAX = 256;

/**
 * Checks `content` against the form. The answer it returns holds exactly the form's fields:
 * an optional text field left empty is left out (an empty box is no answer), everything else
 * as given. Unknown keys are refused, not dropped: an answer the person did not see is wrong.
 */
export function validateAnswer(form: ElicitationFormT, content: unknown): AnswerResult {
  const fields: Record<string, string> = {};
  const formErrors: string[] = [];
  const source = content === undefined || content === null ? {} : content;
  if (typeof source !== 'object' || Array.isArray(source)) {
    return { ok: false, error: { fields, form: ['the answer is not a set of fields'] } };
  }
  const given = source as Record<string, unknown>;
  const known = new Set(form.fields.map((f) => f.name));
  for (const key of Object.keys(given)) if (!known.has(key)) formErrors.push(`"${key}" is not a field of this form`);

  const value: ElicitationContentT = {};
  for (const field of form.fields) {
    const raw = Object.hasOwn(given, field.name) ? given[field.name] : undefined;
    const checked = checkField(field, raw);
    if (typeof checked === 'string') fields[field.name] = checked;
    else if (checked.value !== undefined) value[field.name] = checked.value;
  }
  if (Object.keys(fields).length > 0 || formErrors.length > 0) return { ok: false, error: { fields, form: formErrors } };
  return { ok: true, value };
}

/** A reason, or the value to send (`undefined`: left out). */
function checkField(field: ElicitationFieldT, raw: unknown): string | { value: ElicitationValueT | undefined } {
  if (raw === undefined || raw === null || raw === '') return field.required ? 'Required' : { value: undefined };
  switch (field.kind) {
    case 'text':
      return typeof raw === 'string' ? (textProblem(field, raw) ?? { value: raw }) : 'Must be text';
    case 'choice':
      return typeof raw === 'string' && field.options.some((o) => o.value === raw) ? { value: raw } : 'Choose one of the options';
    case 'multi_choice': {
      if (!Array.isArray(raw) || !raw.every((v) => typeof v === 'string')) return 'Choose from the options';
      const known = new Set(field.options.map((o) => o.value));
      const unknown = raw.find((v) => !known.has(v));
      if (unknown !== undefined) return `"${unknown}" is not one of the options`;
      if (new Set(raw).size !== raw.length) return 'An option is chosen twice';
      if (field.required && raw.length === 0) return 'Required';
      if (field.minItems !== undefined && raw.length < field.minItems) return `Choose at least ${field.minItems}`;
      if (field.maxItems !== undefined && raw.length > field.maxItems) return `Choose at most ${field.maxItems}`;
      return { value: raw as string[] };
    }
    case 'number': {
      if (typeof raw !== 'number' || !Number.isFinite(raw)) return field.integer ? 'Must be a whole number' : 'Must be a number';
      if (field.integer && !Number.isInteger(raw)) return 'Must be a whole number';
      if (field.minimum !== undefined && raw < field.minimum) return `Must be ${field.minimum} or more`;
      if (field.maximum !== undefined && raw > field.maximum) return `Must be ${field.maximum} or less`;
      return { value: raw };
    }
    case 'boolean':
      return typeof raw === 'boolean' ? { value: raw } : 'Must be yes or no';
  }
}

function textProblem(field: TextFieldT, text: string): string | undefined {
  const length = [...text].length; // JSON Schema counts code points
  if (field.minLength !== undefined && length < field.minLength) return `Must be at least ${field.minLength} characters`;
  if (field.maxLength !== undefined && length > field.maxLength) return `Must be at most ${field.maxLength} characters`;
  switch (field.format) {
    case 'email':
      if (!isEmail(text)) return 'Must be an email address';
      break;
    case 'uri':
      if (!isAbsoluteUri(text)) return 'Must be a full address (such as https://example.com)';
      break;
    case 'date':
      if (!isDate(text)) return 'Must be a date (YYYY-MM-DD)';
      break;
    case 'date-time':
      if (!isDateTime(text)) return 'Must be a date and time (YYYY-MM-DDTHH:MM:SS with a time zone)';
      break;
    case undefined:
      break;
  }
  if (field.pattern !== undefined && field.patternEnforced && text.length <= PATTERN_CHECK_MAX) {
    if (!compilePattern(field.pattern)?.test(text)) return `Must match the pattern ${field.pattern}`;
  }
  return undefined;
}

/** The HTML standard's "valid email address" (what `<input type=email>` accepts). */
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
export const isEmail = (s: string): boolean => EMAIL.test(s);

/** `URL` exists in Node and browsers; the shared project has neither's types. */
type ParsedUrl = { protocol: string; username: string; password: string; hostname: string; host: string; port: string; href: string; origin: string };
export const parseUrl = (s: string): ParsedUrl | undefined => {
  const Url = (globalThis as unknown as { URL: new (input: string) => ParsedUrl }).URL;
  try {
    return new Url(s);
  } catch {
    return undefined;
  }
};

/** JSON Schema's `uri`: absolute (a scheme), no spaces. */
export const isAbsoluteUri = (s: string): boolean => /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$/.test(s) && parseUrl(s) !== undefined;

/** RFC 3339 full-date, a real calendar day. */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] ?? 0;
  return d <= days;
}

/** RFC 3339 date-time: a full date, `T`, a time with seconds, and `Z` or an offset. */
export function isDateTime(s: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/.exec(s);
  if (!m || !isDate(m[1] ?? '')) return false;
  const [h, mi, sec] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (h > 23 || mi > 59 || sec > 60) return false; // 60: a leap second
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return false;
  return true;
}

/**
 * What a form's inputs hold (text boxes give text, check boxes booleans, multi-selects lists),
 * made into an answer to check: a number box's text becomes a number when it reads as one (or
 * stays text, which the check then refuses with its reason), an empty box is no answer.
 */
export function contentFromInputs(form: ElicitationFormT, inputs: Readonly<Record<string, string | boolean | readonly string[] | undefined>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of form.fields) {
    const input = Object.hasOwn(inputs, field.name) ? inputs[field.name] : undefined;
    if (input === undefined || input === '') continue;
    if (field.kind === 'number' && typeof input === 'string') {
      const trimmed = input.trim();
      const n = trimmed === '' ? Number.NaN : Number(trimmed);
      out[field.name] = Number.isFinite(n) ? n : input;
    } else out[field.name] = Array.isArray(input) ? [...(input as readonly string[])] : input;
  }
  return out;
}

/** The values each field starts with: its default, else empty (unchecked, nothing chosen). */
export function initialInputs(form: ElicitationFormT): Record<string, string | boolean | string[]> {
  const out: Record<string, string | boolean | string[]> = {};
  for (const field of form.fields) {
    switch (field.kind) {
      case 'text':
      case 'choice':
        out[field.name] = field.default ?? '';
        break;
      case 'number':
        out[field.name] = field.default === undefined ? '' : String(field.default);
        break;
      case 'boolean':
        out[field.name] = field.default ?? false;
        break;
      case 'multi_choice':
        out[field.name] = [...(field.default ?? [])];
        break;
    }
  }
  return out;
}

/** Names of the fields whose answers are masked in the transcript and hidden while typed. */
export function secretFields(form: ElicitationFormT): string[] {
  return form.fields.flatMap((f) => (f.kind === 'text' && f.secret ? [f.name] : []));
}

/** The answer as the transcript keeps it: each secret field's value replaced by `MASKED`. */
export function maskAnswer(form: ElicitationFormT, content: ElicitationContentT): ElicitationContentT {
  const secret = new Set(secretFields(form));
  return Object.fromEntries(Object.entries(content).map(([name, value]) => [name, secret.has(name) ? MASKED : value]));
}
