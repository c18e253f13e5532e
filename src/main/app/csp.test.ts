import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isExternalLink, RENDERER_CSP } from './csp';

describe('renderer CSP', () => {
  it('sends the same policy as the renderer meta tag', () => {
    const html = readFileSync(join(import.meta.dirname, '../../renderer/index.html'), 'utf8');
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html);
    expect(meta?.[1]).toBe(RENDERER_CSP);
  });
});

describe('isExternalLink', () => {
  it('opens only http(s) links in the system browser', () => {
    expect(isExternalLink('https://example.com/a')).toBe(true);
    expect(isExternalLink('http://example.com/a')).toBe(true);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'about:blank', 'nonsense']) {
      expect(isExternalLink(url), url).toBe(false);
    }
  });
});
