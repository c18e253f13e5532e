import { chmodSync, existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../test-support/processes';
import { tempDir } from '../test-support/temp-dir';
import { findTerminal, shellScript } from './terminal-launcher';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

/** A folder on PATH holding fake terminals that record how they were started. */
function fakeTerminals(...names: string[]): { bin: string; record: string; cwd: string } {
  const dir = tempDir('sb-term-');
  dirs.push(dir);
  const record = join(dir.path, 'record');
  for (const name of names) {
    const file = join(dir.path, name);
    writeFileSync(file, `#!/bin/sh\nPATH=/usr/bin:/bin\n{ echo "${name}"; pwd; for a in "$@"; do echo "$a"; done; } > '${record}.tmp' && mv '${record}.tmp' '${record}'\n`);
    chmodSync(file, 0o755);
  }
  return { bin: dir.path, record, cwd: realpathSync(dir.path) };
}

describe('opening a sign-in command in a terminal window', () => {
  it("runs the command through the desktop's terminal in the session folder, and keeps the window open", async () => {
    const t = fakeTerminals('xterm', 'x-terminal-emulator');
    const launcher = findTerminal({ PATH: t.bin, DISPLAY: ':0' }, 'linux');
    expect(launcher?.name).toBe('x-terminal-emulator');
    launcher!.open("npx agent --login 'a b'", t.cwd);
    await waitUntil(() => existsSync(t.record), 'the terminal started', 5_000, 20);
    expect(readFileSync(t.record, 'utf8').trimEnd().split('\n')).toEqual([
      'x-terminal-emulator',
      t.cwd,
      '-e',
      'sh',
      '-c',
      shellScript("npx agent --login 'a b'"),
    ]);
    expect(shellScript('x')).toMatch(/^x; .*read _$/);
  });

  it('uses the first terminal it finds when the desktop names none', () => {
    const t = fakeTerminals('xterm');
    expect(findTerminal({ PATH: t.bin, WAYLAND_DISPLAY: 'wayland-0' }, 'linux')?.name).toBe('xterm');
  });

  it('offers nothing without a display or without a terminal', () => {
    const t = fakeTerminals('xterm');
    expect(findTerminal({ PATH: t.bin }, 'linux')).toBeUndefined();
    expect(findTerminal({ PATH: fakeTerminals().bin, DISPLAY: ':0' }, 'linux')).toBeUndefined();
  });
});
