/**
 * Event payloads are `Record<string, unknown>` in the contract (their shape depends on the
 * kind and on what the agent sent), so the renderer narrows field by field and never throws.
 */
export type Rec = Record<string, unknown>;

export function isRec(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function arr(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}

export function recs(v: unknown): readonly Rec[] {
  return arr(v).filter(isRec);
}

export function strings(v: unknown): readonly string[] {
  return arr(v).filter((x): x is string => typeof x === 'string');
}
