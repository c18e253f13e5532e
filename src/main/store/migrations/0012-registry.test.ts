import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir';
import { migrate } from './index';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

function db(): Database.Database {
  const dir = tempDir();
  dirs.push(dir);
  const d = new Database(join(dir.path, 'test.db'));
  d.pragma('foreign_keys = ON');
  return d;
}

describe('migration 0012 (registry agents)', () => {
  it('adds registry_agents and registry_versions, keeping existing agents untouched', () => {
    const d = db();
    migrate(d, 11);
    d.prepare(`INSERT INTO agents (id, name, command, source, created_at, updated_at) VALUES ('gemini', 'Gemini', 'gemini', 'user', 1, 1)`).run();
    expect(migrate(d, 12)).toBe(12);
    const tables = (d.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'registry_%' ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
    expect(tables).toEqual(['registry_agents', 'registry_versions']);
    expect(d.prepare(`SELECT id, command FROM agents`).all()).toEqual([{ id: 'gemini', command: 'gemini' }]);
    expect(d.prepare(`SELECT COUNT(*) AS n FROM registry_agents`).get()).toEqual({ n: 0 });
  });

  it('drops an agent\'s registry rows with the agent, and refuses a row for an agent that does not exist or an unknown kind', () => {
    const d = db();
    migrate(d, 12);
    d.prepare(`INSERT INTO agents (id, name, command, source, created_at, updated_at) VALUES ('kimi', 'Kimi', '/x/kimi', 'user', 1, 1)`).run();
    d.prepare(`INSERT INTO registry_agents (agent_id, registry_id, kind, version, updated_at) VALUES ('kimi', 'kimi', 'binary', '1.9.0', 1)`).run();
    d.prepare(`INSERT INTO registry_versions (agent_id, version, command, args, env, manifest, installed_at) VALUES ('kimi', '1.9.0', '/x/kimi', '[]', '{}', '{}', 1)`).run();
    expect(() => d.prepare(`INSERT INTO registry_agents (agent_id, registry_id, kind, version, updated_at) VALUES ('ghost', 'x', 'npx', '1.0.0', 1)`).run()).toThrow(/FOREIGN KEY/);
    d.prepare(`INSERT INTO agents (id, name, command, source, created_at, updated_at) VALUES ('other', 'O', 'o', 'user', 1, 1)`).run();
    expect(() => d.prepare(`INSERT INTO registry_agents (agent_id, registry_id, kind, version, updated_at) VALUES ('other', 'x', 'docker', '1.0.0', 1)`).run()).toThrow(/CHECK/);
    d.prepare(`DELETE FROM agents WHERE id = 'kimi'`).run();
    expect(d.prepare(`SELECT COUNT(*) AS n FROM registry_agents`).get()).toEqual({ n: 0 });
    expect(d.prepare(`SELECT COUNT(*) AS n FROM registry_versions`).get()).toEqual({ n: 0 });
  });
});
