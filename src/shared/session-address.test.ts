import { describe, expect, it } from 'vitest';
import { hashFor, sessionFromHash } from './session-address';

const ID = '11111111-1111-4111-8111-111111111111';

describe('the session in an address', () => {
  it('reads back what it writes', () => {
    expect(hashFor(ID)).toBe(`#/session/${ID}`);
    expect(sessionFromHash(hashFor(ID))).toBe(ID);
  });

  it('finds no session in a hash that names none, or cannot be decoded', () => {
    expect(sessionFromHash('')).toBeUndefined();
    expect(sessionFromHash(`#session-${ID}`)).toBeUndefined();
    expect(sessionFromHash('#/session/not-an-id')).toBeUndefined();
    expect(sessionFromHash('#/session/%E0%A4%A')).toBeUndefined();
  });
});
