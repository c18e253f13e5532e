import { describe, expect, it } from 'vitest';
import { addressFor, hashFor, sessionFromHash } from './address';

const ID = '11111111-1111-4111-8111-111111111111';

describe('the session in the address', () => {
  it('reads back what it writes, and nothing else', () => {
    expect(sessionFromHash(hashFor(ID))).toBe(ID);
    expect(sessionFromHash('')).toBeUndefined();
    expect(sessionFromHash('#session-' + ID)).toBeUndefined();
    expect(sessionFromHash('#/session/not-an-id')).toBeUndefined();
  });

  it('keeps the page and its token, so a new tab can connect', () => {
    expect(addressFor({ origin: 'http://127.0.0.1:4000', pathname: '/', search: '?token=abc' }, ID)).toBe(
      `http://127.0.0.1:4000/?token=abc#/session/${ID}`,
    );
  });
});
