import { describe, expect, it } from 'vitest';
import { checkUrlTarget, decodePunycode, hostToUnicode, looksLatin, mixesScripts, UrlTarget, type UrlTargetResult, type UrlTargetT } from './elicitation';

function target(raw: string): UrlTargetT {
  const result = checkUrlTarget(raw);
  if (!result.ok) throw new Error(result.error.message);
  return UrlTarget.parse(result.value);
}
const kinds = (t: UrlTargetT): string[] => t.warnings.map((w) => w.kind);
const refusal = (result: UrlTargetResult): string => (result.ok ? 'accepted' : result.error.reason);

describe('checkUrlTarget: what opens', () => {
  it('accepts a plain https address with no warnings', () => {
    expect(target('https://auth.example.com/login?x=1')).toEqual({
      href: 'https://auth.example.com/login?x=1',
      scheme: 'https',
      host: 'auth.example.com',
      displayHost: 'auth.example.com',
      warnings: [],
      deceptive: false,
    });
  });

  it('normalises case and a default port; keeps another port in the host shown', () => {
    expect(target('HTTPS://EXAMPLE.COM:443/')).toMatchObject({ href: 'https://example.com/', host: 'example.com', displayHost: 'example.com' });
    expect(target('https://example.com:8443/')).toMatchObject({ host: 'example.com:8443', displayHost: 'example.com:8443' });
  });

  it('says plain http is not encrypted, without calling it deceptive', () => {
    const t = target('http://example.com/');
    expect(t.warnings).toEqual([{ kind: 'insecure', deceptive: false, message: 'The page is not encrypted (http).' }]);
    expect(t.deceptive).toBe(false);
  });

  it('refuses every scheme but http and https', () => {
    for (const u of ['javascript:alert(1)', 'data:text/html,<script>x</script>', 'file:///etc/passwd', 'vscode://x/y', 'ftp://example.com/', 'blob:https://example.com/1']) {
      expect(refusal(checkUrlTarget(u)), u).toBe('scheme');
    }
  });

  it('refuses what is not one well-formed address', () => {
    expect(refusal(checkUrlTarget(42))).toBe('not_text');
    expect(refusal(checkUrlTarget('not a url'))).toBe('whitespace');
    expect(refusal(checkUrlTarget('example.com/path'))).toBe('invalid');
    expect(refusal(checkUrlTarget(`https://example.com/${'a'.repeat(8200)}`))).toBe('too_long');
  });

  it('refuses spaces, control and invisible characters the parser would silently drop or hide', () => {
    for (const u of ['https://exa\tmple.com/', 'https://example.com/\n', ' https://example.com', 'https://exam\u200bple.com', 'https://example.com/\u202egnp.exe']) {
      expect(refusal(checkUrlTarget(u)), JSON.stringify(u)).toBe('whitespace');
    }
  });
});

describe('checkUrlTarget: deceptive hosts', () => {
  it('flags a user name that poses as the host, and names the real host', () => {
    const t = target('https://github.com@evil.example/login');
    expect(t.displayHost).toBe('evil.example');
    expect(t.deceptive).toBe(true);
    expect(t.warnings[0]).toMatchObject({ kind: 'userinfo', deceptive: true });
    expect(t.warnings[0]?.message).toContain('the site is evil.example');
    expect(kinds(target('https://user:secret@a.example/'))).toEqual(['userinfo']);
    expect(kinds(target('https://accounts.google.com%40evil.example@evil.example/'))).toEqual(['userinfo']);
  });

  it('flags IP addresses, and IP addresses written in disguise', () => {
    expect(kinds(target('https://192.168.1.10/'))).toEqual(['ip_address']);
    expect(kinds(target('https://[::1]:8080/'))).toEqual(['ip_address']);
    for (const u of ['http://0x7f.1/', 'http://2130706433/', 'http://0177.0.0.1/', 'http://127.1/']) {
      const t = target(u);
      expect(t.host, u).toBe('127.0.0.1');
      expect(t.warnings[0], u).toMatchObject({ kind: 'obfuscated_ip', deceptive: true });
    }
  });

  it('shows international names decoded and flags a label that mixes alphabets', () => {
    const t = target('https://pаypal.com/'); // Cyrillic а
    expect(t.host).toBe('xn--pypal-4ve.com');
    expect(t.displayHost).toBe('pаypal.com');
    expect(kinds(t)).toEqual(['mixed_scripts', 'international']);
    expect(t.deceptive).toBe(true);
    // The same host sent already encoded.
    expect(target('https://xn--pple-43d.com/')).toMatchObject({ displayHost: 'аpple.com', deceptive: true });
  });

  it('flags a whole label of Cyrillic or Greek letters that pass for Latin ones', () => {
    const t = target('https://xn--80ak6aa92e.com/');
    expect(t.displayHost).toBe('аррӏе.com');
    expect(kinds(t)).toEqual(['lookalike', 'international']);
    expect(t.deceptive).toBe(true);
  });

  it('shows honest international names without calling them deceptive', () => {
    for (const [u, shown] of [
      ['https://münchen.de/', 'münchen.de'],
      ['https://例え.jp/', '例え.jp'],
      ['https://пример.рф/', 'пример.рф'],
      ['https://ελληνικά.gr/', 'ελληνικά.gr'],
      ['https://ソニーabc.jp/', 'ソニーabc.jp'],
    ] as const) {
      const t = target(u);
      expect(t.displayHost, u).toBe(shown);
      expect(t.warnings.map((w) => [w.kind, w.deceptive]), u).toEqual([['international', false]]);
    }
  });
});

describe('scripts', () => {
  it('mixesScripts: Latin with Cyrillic or Greek is mixed; Latin with Japanese or Korean is not', () => {
    expect(mixesScripts('pаypal')).toBe(true);
    expect(mixesScripts('gοοgle')).toBe(true); // Greek ο
    expect(mixesScripts('ソニーabc')).toBe(false);
    expect(mixesScripts('삼성abc')).toBe(false);
    expect(mixesScripts('abc-123')).toBe(false);
  });

  it('looksLatin: only non-Latin labels made entirely of look-alike letters', () => {
    expect(looksLatin('аррӏе')).toBe(true);
    expect(looksLatin('рус')).toBe(true);
    expect(looksLatin('пример')).toBe(false);
    expect(looksLatin('apple')).toBe(false);
  });
});

describe('punycode', () => {
  it('decodes RFC 3492 samples', () => {
    expect(decodePunycode('mnchen-3ya')).toBe('münchen');
    expect(decodePunycode('bcher-kva')).toBe('bücher');
    expect(decodePunycode('3B-ww4c5e180e575a65lsy2b')).toBe('3年B組金八先生');
    expect(decodePunycode('egbpdaj6bu4bxfgehfvwxn')).toBe('ليهمابتكلموشعربي؟');
  });

  it('refuses what is not Punycode', () => {
    expect(decodePunycode('zz')).toBeUndefined();
    expect(decodePunycode('a-!')).toBeUndefined();
    expect(decodePunycode('ü-abc')).toBeUndefined();
    expect(decodePunycode('99999999999999999999')).toBeUndefined();
  });

  it('hostToUnicode keeps an undecodable label as it is and reports it', () => {
    expect(hostToUnicode('xn--mnchen-3ya.xn--zz.de')).toEqual({ unicode: 'münchen.xn--zz.de', undecodable: ['xn--zz'] });
  });
});
