/**
 * URL-mode questions (`elicitation/create` with `mode: "url"`): the agent asks the person to
 * open a page (a sign-in, a payment, an OAuth consent). The window shows where it leads, the
 * host, prominently, and opens it only when the person clicks. This module decides what that
 * host is and whether it may be dressed up to look like another:
 *
 * - only `http:` and `https:` open; anything else (`javascript:`, `file:`, `data:`, custom
 *   schemes) is refused, as is an address with spaces or control characters (the URL parser
 *   would silently drop a tab or newline and change what is opened);
 * - a user name before `@` (`https://github.com@evil.example/`) reads as a host but is not one;
 * - an IP address instead of a name, and a number written in hex, octal or as one integer
 *   (`http://0x7f.1/`, `http://2130706433/`), which the parser rewrites;
 * - international names (`xn--` labels): shown decoded, and flagged as deceptive when a label
 *   mixes scripts (`pаypal` with a Cyrillic `а`), consists only of letters that look Latin in
 *   another script (`аррӏе`), or is not valid Punycode.
 */
import { z } from 'zod';
import { parseUrl } from './elicitation-answer';
import { hostToUnicode } from './punycode';

export const URL_MAX_LENGTH = 8_192;

export const UrlWarningKind = z.enum(['userinfo', 'ip_address', 'obfuscated_ip', 'international', 'mixed_scripts', 'lookalike', 'bad_punycode', 'insecure']);
export const UrlWarning = z.object({
  kind: UrlWarningKind,
  /** True when the address may be made to look like another site's. */
  deceptive: z.boolean(),
  message: z.string(),
});

export const UrlTarget = z.object({
  /** What is opened: the parser's normalised form of the agent's URL. */
  href: z.string(),
  scheme: z.enum(['http', 'https']),
  /** The host as the browser will connect to it (ASCII, `xn--` labels; `:port` when not the default). */
  host: z.string(),
  /** The same host as a person reads it (international labels decoded): show this prominently. */
  displayHost: z.string(),
  warnings: z.array(UrlWarning),
  /** Any warning says the host may pass for another: show the warnings before the person opens it. */
  deceptive: z.boolean(),
});

export type UrlWarningT = z.output<typeof UrlWarning>;
export type UrlTargetT = z.output<typeof UrlTarget>;
export type UrlRefusal = { reason: 'not_text' | 'too_long' | 'invalid' | 'whitespace' | 'scheme' | 'no_host'; message: string };
export type UrlTargetResult = { ok: true; value: UrlTargetT } | { ok: false; error: UrlRefusal };

const refuse = (reason: UrlRefusal['reason'], message: string): UrlTargetResult => ({ ok: false, error: { reason, message } });

/** Checks the URL an agent asks the person to open; see the module comment for what is flagged. */
export function checkUrlTarget(raw: unknown): UrlTargetResult {
  if (typeof raw !== 'string') return refuse('not_text', 'The agent sent no address.');
  if (raw.length > URL_MAX_LENGTH) return refuse('too_long', `The address is longer than ${URL_MAX_LENGTH} characters.`);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u.test(raw)) {
    return refuse('whitespace', 'The address contains spaces, invisible or control characters.');
  }
  const url = parseUrl(raw);
  if (!url) return refuse('invalid', 'The address is not a valid URL.');
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return refuse('scheme', `Only web addresses (http, https) are opened, not "${scheme}:".`);
  if (url.hostname === '') return refuse('no_host', 'The address names no host.');

  const warnings: UrlWarningT[] = [];
  const warn = (kind: UrlWarningT['kind'], deceptive: boolean, message: string): void => {
    warnings.push({ kind, deceptive, message });
  };
  const { unicode, undecodable } = hostToUnicode(url.hostname);
  const displayHost = url.port ? `${unicode}:${url.port}` : unicode;

  if (url.username !== '' || url.password !== '') {
    warn('userinfo', true, `The address starts with a user name ("${decodeSafe(url.username)}@"), which can pass for a site's name; the site is ${displayHost}.`);
  }
  if (isIpLiteral(url.hostname)) {
    const written = writtenHost(raw);
    if (written !== undefined && written.toLowerCase() !== url.hostname.toLowerCase() && !url.hostname.startsWith('[')) {
      warn('obfuscated_ip', true, `The address writes an IP address in disguise ("${written}" is ${url.hostname}).`);
    } else warn('ip_address', true, `The address is an IP address (${url.hostname}), not a site's name.`);
  }
  if (undecodable.length > 0) warn('bad_punycode', true, `The host has labels that are not valid international names (${undecodable.join(', ')}).`);
  if (unicode !== url.hostname) {
    const labels = unicode.split('.');
    const mixed = labels.filter((l) => mixesScripts(l));
    const lookalike = labels.filter((l) => !mixesScripts(l) && looksLatin(l));
    if (mixed.length > 0) warn('mixed_scripts', true, `The host mixes alphabets in "${mixed.join('.')}", a way to imitate another site's name.`);
    if (lookalike.length > 0) warn('lookalike', true, `"${lookalike.join('.')}" is written in letters that look like Latin ones but are not.`);
    warn('international', false, `The host uses international characters: ${unicode} is ${url.hostname}.`);
  }
  if (scheme === 'http') warn('insecure', false, 'The page is not encrypted (http).');

  return {
    ok: true,
    value: {
      href: url.href,
      scheme,
      host: url.host,
      displayHost,
      warnings,
      deceptive: warnings.some((w) => w.deceptive),
    },
  };
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}

/** The host as the agent wrote it (between `//` and the path, without user name or port). */
function writtenHost(raw: string): string | undefined {
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#\\]*)/.exec(raw);
  if (!m) return undefined;
  const authority = m[1] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
}

const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Cherokee', 'Hebrew', 'Arabic', 'Devanagari', 'Thai', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Bopomofo'] as const;
const SCRIPT_PATTERNS = SCRIPTS.map((name) => [name, new RegExp(`^\\p{Script=${name}}$`, 'u')] as const);
/** Scripts that are written together (Chrome's IDN display rules allow the same sets). */
const ALLOWED_MIXES: readonly (readonly string[])[] = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Hangul'],
  ['Latin', 'Han', 'Bopomofo'],
];

function scriptsOf(label: string): Set<string> {
  const found = new Set<string>();
  for (const ch of label) {
    // Digits, hyphens, marks and shared signs (the Japanese long-vowel mark): every script uses them.
    if (!/\p{L}/u.test(ch) || /[\p{Script=Common}\p{Script=Inherited}]/u.test(ch)) continue;
    found.add(SCRIPT_PATTERNS.find(([, re]) => re.test(ch))?.[0] ?? 'Other');
  }
  return found;
}

export function mixesScripts(label: string): boolean {
  const scripts = [...scriptsOf(label)];
  if (scripts.length <= 1) return false;
  return !ALLOWED_MIXES.some((allowed) => scripts.every((s) => allowed.includes(s)));
}

/** Cyrillic and Greek letters that pass for Latin ones in most fonts. */
const LATIN_LOOKALIKES = new Set([...'аеорсухіјѕԁһӏԛԝүкѵοαρνικυχ']);

/** A label in a non-Latin script made only of letters that look Latin (`аррӏе`). */
export function looksLatin(label: string): boolean {
  const scripts = scriptsOf(label);
  if (scripts.size !== 1 || !(scripts.has('Cyrillic') || scripts.has('Greek'))) return false;
  return [...label].every((ch) => !/\p{L}/u.test(ch) || LATIN_LOOKALIKES.has(ch));
}
