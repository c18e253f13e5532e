/**
 * Punycode decoding (RFC 3492), so a host the URL parser turned into `xn--…` labels can be
 * shown as the characters a person would see, and checked for look-alike letters. Only
 * decoding: the URL parser does the encoding.
 */

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;
const MAX_CODE_POINT = 0x10ffff;

function digitValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 22; // 0-9 → 26-35
  if (code >= 65 && code <= 90) return code - 65; // A-Z → 0-25
  if (code >= 97 && code <= 122) return code - 97; // a-z → 0-25
  return BASE;
}

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

/** Decodes one label's Punycode (without `xn--`); undefined when it is not valid Punycode. */
export function decodePunycode(input: string): string | undefined {
  const output: number[] = [];
  const delimiter = input.lastIndexOf('-');
  for (const ch of delimiter >= 0 ? input.slice(0, delimiter) : '') {
    const code = ch.charCodeAt(0);
    if (code >= 0x80) return undefined;
    output.push(code);
  }
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  let pos = delimiter >= 0 ? delimiter + 1 : 0;
  while (pos < input.length) {
    const before = i;
    let weight = 1;
    for (let k = BASE; ; k += BASE) {
      if (pos >= input.length) return undefined;
      const digit = digitValue(input.charCodeAt(pos++));
      if (digit >= BASE) return undefined;
      i += digit * weight;
      if (!Number.isSafeInteger(i)) return undefined;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      weight *= BASE - t;
      if (!Number.isSafeInteger(weight)) return undefined;
    }
    const length = output.length + 1;
    bias = adapt(i - before, length, before === 0);
    n += Math.floor(i / length);
    i %= length;
    if (n > MAX_CODE_POINT || (n >= 0xd800 && n <= 0xdfff)) return undefined;
    output.splice(i, 0, n);
    i++;
  }
  return String.fromCodePoint(...output);
}

/** A host's labels with every `xn--` label decoded; a label that does not decode stays as it was. */
export function hostToUnicode(host: string): { unicode: string; undecodable: string[] } {
  const undecodable: string[] = [];
  const unicode = host
    .split('.')
    .map((label) => {
      if (!/^xn--/i.test(label)) return label;
      const decoded = decodePunycode(label.slice(4).toLowerCase());
      if (decoded === undefined || decoded === '') {
        undecodable.push(label);
        return label;
      }
      return decoded;
    })
    .join('.');
  return { unicode, undecodable };
}
