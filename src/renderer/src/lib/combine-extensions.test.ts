import { combineExtensions as combineEach } from 'micromark-util-combine-extensions';
import { describe, expect, it } from 'vitest';
import { combineExtensions } from './combine-extensions';

describe('combineExtensions, memoised', () => {
  const construct = (name: string) => ({ name, tokenize: () => () => undefined });
  const core = { text: { 42: construct('core') }, flow: { 96: [construct('fence')] } };
  const more = () => ({ text: { 42: construct('more'), 126: construct('tilde') } });
  const gfmSyntax = more();

  it('combines a list as the package does', () => {
    expect(combineExtensions([core, gfmSyntax])).toEqual(combineEach([core, gfmSyntax]));
  });

  it('gives the same object for a list of the same extension objects, another for other ones', () => {
    const first = combineExtensions([core, gfmSyntax]);
    expect(combineExtensions([core, gfmSyntax])).toBe(first);
    expect(combineExtensions([core, more()])).not.toBe(first);
    expect(combineExtensions([core])).not.toBe(first);
    expect(combineExtensions([gfmSyntax, core])).not.toBe(first);
  });
});
