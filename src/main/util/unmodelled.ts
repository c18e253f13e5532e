import { decodedJson, type Extra } from '../../shared/events';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown): boolean => v === undefined || v === null;

/** Same JSON value, key order aside; absent and null fields count as missing. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (!isObj(a) || !isObj(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (absent(a[k]) && absent(b[k])) continue;
    if (!sameJson(a[k], b[k])) return false;
  }
  return true;
}

/**
 * What `modelled` (a payload after its schema parsed it) does not carry of `original` (what
 * the agent sent), by the agent's field names: a field we do not model at all, or one we
 * model only in part (its whole original value is kept, nested `_meta` and all). `renamed`
 * maps an original field to the payload field that models it. Undefined when nothing is lost.
 */
export function unmodelled(original: Obj, modelled: Obj, renamed: Readonly<Record<string, string>> = {}): Extra | undefined {
  let extra: Extra | undefined;
  for (const [key, value] of Object.entries(original)) {
    if (absent(value)) continue;
    const model = modelled[renamed[key] ?? key];
    if (sameJson(value, model)) continue;
    extra ??= {};
    extra[key] = decodedJson(value) ?? null;
  }
  return extra;
}
