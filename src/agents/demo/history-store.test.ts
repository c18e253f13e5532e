import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore, type SessionMeta } from './history-store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'demo-history-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const meta = (sessionId: string): SessionMeta => ({
  sessionId,
  cwd: '/tmp/project',
  title: 'Demo session',
  createdAt: '2026-12-03T06:00:00.000Z',
  updatedAt: '2026-12-03T06:00:00.000Z',
  promptCount: 0,
});
const metaFile = (id: string): string => join(dir, 'sessions', `${id}.meta.json`);

describe('HistoryStore: a prompt is recorded in place', () => {
  it('a prompt leaves the meta file as it was and is read back with it, by this store and a new one', () => {
    const store = new HistoryStore(dir);
    store.create(meta('s1'));
    const before = { ino: statSync(metaFile('s1')).ino, text: readFileSync(metaFile('s1'), 'utf8') };
    store.recordTurn('s1', 1, '2026-12-03T06:01:00.000Z');
    store.recordTurn('s1', 2, '2026-12-03T06:02:00.000Z');
    expect({ ino: statSync(metaFile('s1')).ino, text: readFileSync(metaFile('s1'), 'utf8') }).toEqual(before);
    for (const reader of [store, new HistoryStore(dir)]) {
      expect(reader.readMeta('s1')).toMatchObject({ promptCount: 2, updatedAt: '2026-12-03T06:02:00.000Z' });
      expect(reader.list()).toEqual([expect.objectContaining({ sessionId: 's1', promptCount: 2 })]);
    }
  });

  it('a shorter record after a longer one leaves nothing of the longer behind', () => {
    const store = new HistoryStore(dir);
    store.create(meta('s1'));
    store.recordTurn('s1', 12345, '2026-12-03T06:01:00.000Z');
    store.recordTurn('s1', 9, '2026-12-03T06:02:00.000Z');
    expect(readFileSync(join(dir, 'sessions', 's1.turn'), 'utf8').trimEnd()).toBe('9 2026-12-03T06:02:00.000Z');
  });

  it('a meta written after a prompt (a title) keeps the prompt count, and later prompts still count', () => {
    const store = new HistoryStore(dir);
    store.create(meta('s1'));
    store.recordTurn('s1', 3, '2026-12-03T06:03:00.000Z');
    store.updateMeta('s1', { title: 'Renamed', updatedAt: '2026-12-03T06:04:00.000Z' });
    expect(JSON.parse(readFileSync(metaFile('s1'), 'utf8'))).toMatchObject({ title: 'Renamed', promptCount: 3 });
    expect(store.readMeta('s1')).toMatchObject({ title: 'Renamed', promptCount: 3, updatedAt: '2026-12-03T06:04:00.000Z' });
    store.recordTurn('s1', 4, '2026-12-03T06:05:00.000Z');
    expect(store.readMeta('s1')).toMatchObject({ title: 'Renamed', promptCount: 4, updatedAt: '2026-12-03T06:05:00.000Z' });
  });

  it('an unreadable record leaves the meta as it was, never the session lost', () => {
    const store = new HistoryStore(dir);
    store.create({ ...meta('s1'), promptCount: 5 });
    writeFileSync(join(dir, 'sessions', 's1.turn'), 'torn\0\0');
    expect(store.readMeta('s1')).toMatchObject({ sessionId: 's1', promptCount: 5 });
  });

  it('deleting a session removes its record too', () => {
    const store = new HistoryStore(dir);
    store.create(meta('s1'));
    store.recordTurn('s1', 1, '2026-12-03T06:01:00.000Z');
    expect(store.remove('s1')).toBe(true);
    expect(existsSync(join(dir, 'sessions', 's1.turn'))).toBe(false);
    expect(store.readMeta('s1')).toBeUndefined();
  });
});
