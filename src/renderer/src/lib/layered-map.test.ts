import { describe, expect, it } from 'vitest';
import { LayeredMap } from './layered-map';

describe('layered map', () => {
  it('is, change after change, the map a copy and a set would make, in the same order, and leaves the old one as it was', () => {
    let seed = 11;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    let layered: ReadonlyMap<string, number> = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    let plain = new Map(layered);
    for (let step = 0; step < 500; step++) {
      const key = `k${rand(step < 250 ? 40 : 400)}`;
      const before = [...layered];
      const next = LayeredMap.withEntry(layered, key, step);
      expect([...layered]).toEqual(before);
      layered = next;
      plain = new Map(plain).set(key, step);
      expect(layered.size).toBe(plain.size);
      expect(layered.get(key)).toBe(step);
      expect(layered.has(key)).toBe(true);
      expect(layered.has('nope')).toBe(false);
      if (step % 7 === 0) {
        expect([...layered]).toEqual([...plain]);
        expect([...layered.keys()]).toEqual([...plain.keys()]);
        expect([...layered.values()]).toEqual([...plain.values()]);
        const seen: [string, number][] = [];
        layered.forEach((v, k, m) => {
          expect(m).toBe(layered);
          seen.push([k, v]);
        });
        expect(seen).toEqual([...plain.entries()]);
        expect(new Map(layered)).toEqual(plain);
      }
    }
  });

  it('copies at most a few dozen changed entries per change, and starts over with one full copy past them', () => {
    let m: ReadonlyMap<number, number> = new Map(Array.from({ length: 10_000 }, (_, i) => [i, i]));
    let layers = 0;
    for (let i = 0; i < 200; i++) {
      m = LayeredMap.withEntry(m, i, -i);
      if (m instanceof LayeredMap) layers++;
    }
    // Most changes made a layered map; a few started over as a plain one.
    expect(layers).toBeGreaterThan(190);
    expect(layers).toBeLessThan(200);
    expect(m.get(199)).toBe(-199);
    expect(m.get(200)).toBe(200);
    expect(m.size).toBe(10_000);
  });
});
