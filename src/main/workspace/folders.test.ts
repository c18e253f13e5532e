import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir';
import { checkFolder, requireAdditionalDirs, requireFolder } from './folders';

const dirs: { cleanup(): void }[] = [];
function temp(): string {
  const d = tempDir();
  dirs.push(d);
  return d.path;
}
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

describe('checkFolder: can a typed folder be a session folder', () => {
  it('accepts an existing folder and stores it without a trailing separator', () => {
    const dir = temp();
    expect(checkFolder(`${dir}/`)).toEqual({ ok: true, path: dir });
    expect(checkFolder(`  ${dir}  `)).toEqual({ ok: true, path: dir });
  });

  it('says a folder is missing, naming it', () => {
    const missing = join(temp(), 'nope');
    expect(checkFolder(missing)).toEqual({ ok: false, problem: 'missing', message: `There is no folder ${missing}.` });
  });

  it('says a file is not a folder', () => {
    const file = join(temp(), 'notes.txt');
    writeFileSync(file, 'x');
    expect(checkFolder(file)).toMatchObject({ ok: false, problem: 'not_directory', message: `${file} is a file, not a folder.` });
  });

  it('says a folder it may not read is unreadable', () => {
    const dir = temp();
    // The access check is the operating system's answer; as root every folder passes it, so
    // the test gives the answer a non-root user gets for a mode-000 folder.
    const denied = (): void => {
      throw Object.assign(new Error(`EACCES: permission denied, access '${dir}'`), { code: 'EACCES' });
    };
    expect(checkFolder(dir, { access: denied })).toEqual({ ok: false, problem: 'unreadable', message: `Switchboard may not read the folder ${dir}.` });
  });

  it('refuses a relative path (it would resolve against the host, not what was meant) and an empty one', () => {
    expect(checkFolder('src/app', { home: '/home/me' })).toEqual({
      ok: false,
      problem: 'relative',
      message: 'Give the whole path of the folder, e.g. /home/me/src/app',
    });
    expect(checkFolder('   ')).toMatchObject({ ok: false, problem: 'empty' });
  });

  it('reads ~ as the home folder', () => {
    const home = temp();
    mkdirSync(join(home, 'project'));
    expect(checkFolder('~', { home })).toEqual({ ok: true, path: home });
    expect(checkFolder('~/project', { home })).toEqual({ ok: true, path: join(home, 'project') });
  });

  it('turns a bad folder into an invalid_request that says which folder and why', () => {
    const missing = join(temp(), 'gone');
    expect(() => requireFolder(missing)).toThrow(expect.objectContaining({ code: 'invalid_request', message: `The working folder: There is no folder ${missing}.` }));
  });

  it('keeps each additional folder once, not the session folder itself, in the order given', () => {
    const root = temp();
    const [a, b] = ['a', 'b'].map((n) => {
      mkdirSync(join(root, n));
      return join(root, n);
    }) as [string, string];
    expect(requireAdditionalDirs([b, `${a}/`, root, b], root)).toEqual([b, a]);
    expect(() => requireAdditionalDirs([join(root, 'c')], root)).toThrow(/An additional folder: There is no folder/);
  });
});
