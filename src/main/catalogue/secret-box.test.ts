import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogger, type LogEntry } from '../test-support/capture-logger';
import { tempDir } from '../test-support/temp-dir';
import { plainBox, SecretStore, type SecretBox } from './secret-box';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
function secretsFile(): string {
  const dir = tempDir();
  dirs.push(dir);
  return join(dir.path, 'secrets.json');
}

/** A box that visibly transforms values, like safeStorage does. */
const reverseBox: SecretBox = { kind: 'reverse', seal: (s) => [...s].reverse().join(''), open: (s) => [...s].reverse().join('') };

describe('SecretStore', () => {
  // Windows only: it has no POSIX file modes to check (runs here, on Linux).
  it.skipIf(process.platform === 'win32')('writes the secrets file with mode 0600, atomically', () => {
    const file = secretsFile();
    const store = new SecretStore(file, plainBox, captureLogger([]));
    store.update('gemini', { GEMINI_API_KEY: 'sk-live-123' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    store.update('gemini', { OTHER: 'x' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // No temporary file is left beside it.
    expect(readdirSync(join(file, '..'))).toEqual(['secrets.json']);
  });

  it('keeps values across restarts and hands them out only through values()', () => {
    const file = secretsFile();
    new SecretStore(file, plainBox, captureLogger([])).update('qwen', { OPENAI_API_KEY: 'k1', B: 'k2' });
    const again = new SecretStore(file, plainBox, captureLogger([]));
    expect(again.names('qwen')).toEqual(['B', 'OPENAI_API_KEY']);
    expect(again.values('qwen')).toEqual({ OPENAI_API_KEY: 'k1', B: 'k2' });
    again.update('qwen', { B: undefined });
    expect(again.names('qwen')).toEqual(['OPENAI_API_KEY']);
    again.removeAgent('qwen');
    expect(again.names('qwen')).toEqual([]);
  });

  it('stores values sealed by the box, never in clear', () => {
    const file = secretsFile();
    const store = new SecretStore(file, reverseBox, captureLogger([]));
    store.update('claude', { ANTHROPIC_API_KEY: 'abc-secret' });
    expect(readFileSync(file, 'utf8')).not.toContain('abc-secret');
    expect(store.values('claude')).toEqual({ ANTHROPIC_API_KEY: 'abc-secret' });
  });

  it('leaves out a value sealed by a box it does not have, logging its name only', () => {
    const file = secretsFile();
    new SecretStore(file, reverseBox, captureLogger([])).update('claude', { ANTHROPIC_API_KEY: 'abc-secret' });
    const entries: LogEntry[] = [];
    const plain = new SecretStore(file, plainBox, captureLogger(entries));
    expect(plain.values('claude')).toEqual({});
    expect(plain.has('claude', 'ANTHROPIC_API_KEY')).toBe(true);
    expect(JSON.stringify(entries)).toContain('ANTHROPIC_API_KEY');
    expect(JSON.stringify(entries)).not.toContain('terces');
  });

  // Windows only: no POSIX file modes to loosen or tighten (runs here, on Linux).
  it.skipIf(process.platform === 'win32')('tightens a loosened file before reading it', () => {
    const file = secretsFile();
    new SecretStore(file, plainBox, captureLogger([])).update('a', { K: 'v' });
    chmodSync(file, 0o644);
    new SecretStore(file, plainBox, captureLogger([]));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('reports an unreadable file without its content', () => {
    const file = secretsFile();
    const entries: LogEntry[] = [];
    new SecretStore(file, plainBox, captureLogger([])).update('a', { K: 'v' });
    const broken = readFileSync(file, 'utf8').replace('"version": 1', '"version": "sk-leak-9"');
    writeFileSync(file, broken);
    const store = new SecretStore(file, plainBox, captureLogger(entries));
    expect(store.names('a')).toEqual([]);
    expect(entries.some((e) => e.level === 'error')).toBe(true);
    expect(JSON.stringify(entries)).not.toContain('sk-leak-9');
    expect(existsSync(file)).toBe(true);
  });
});
