import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from './cli';
import { parseArgs, USAGE, UsageError } from './cli/parse-args';
import { runCli, startServe } from './test-support/serve-process';
import { tempDir } from './test-support/temp-dir';
import { MAX_TIMER_MS } from './util/clock';

const serve = (...args: string[]) => parseArgs(['serve', ...args], {});
const options = (...args: string[]) => {
  const parsed = serve(...args);
  if (parsed.command !== 'serve') throw new Error('expected serve');
  return parsed.options;
};

describe('switchboard serve: command line', () => {
  it('uses safe defaults: loopback, a free port, a random token, the platform data dir', () => {
    const o = options();
    expect(o).toMatchObject({ port: 0, host: '127.0.0.1', logLevel: 'info', settings: {}, qr: false });
    expect(o.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(options().token).not.toBe(o.token);
    expect(parseArgs(['serve'], { SWITCHBOARD_DATA_DIR: '/data/here' })).toMatchObject({ options: { dataDir: '/data/here' } });
  });

  it('takes every option as `--name value` or `--name=value`', () => {
    expect(
      options('--port', '8080', '--host=0.0.0.0', '--data-dir', '/d', '--token=abcdefgh', '--log-level', 'debug', '--max-sessions-per-broker=3'),
    ).toMatchObject({ port: 8080, host: '0.0.0.0', dataDir: '/d', token: 'abcdefgh', logLevel: 'debug', settings: { maxSessionsPerBroker: 3 } });
  });

  it('takes --qr as a flag without a value', () => {
    expect(options('--qr', '--port', '8080')).toMatchObject({ qr: true, port: 8080 });
    expect(() => serve('--qr=yes')).toThrow('--qr takes no value');
  });

  it('takes the token from SWITCHBOARD_TOKEN (kept out of `ps`), the option winning; and --recover', () => {
    expect(parseArgs(['serve'], { SWITCHBOARD_TOKEN: 'from-the-env' })).toMatchObject({ options: { token: 'from-the-env', recover: false } });
    expect(parseArgs(['serve', '--token', 'on-the-line'], { SWITCHBOARD_TOKEN: 'from-the-env' })).toMatchObject({ options: { token: 'on-the-line' } });
    expect(() => parseArgs(['serve'], { SWITCHBOARD_TOKEN: 'short' })).toThrow('--token must be at least 8 characters');
    expect(options('--recover')).toMatchObject({ recover: true });
  });

  it('asks for help with --help, -h, `help` or nothing at all', () => {
    for (const argv of [['--help'], ['-h'], ['help'], [], ['serve', '--port', '1', '--help']]) {
      expect(parseArgs(argv, {})).toEqual({ command: 'help' });
    }
  });

  it.each([
    [['start'], 'unknown command "start"'],
    [['serve', '--bogus'], 'unknown option --bogus'],
    [['serve', '--bogus=1'], 'unknown option --bogus'],
    [['serve', 'extra'], 'unexpected argument "extra"'],
    [['serve', '-p', '1'], 'unexpected argument "-p"'],
    [['serve', '--port'], '--port needs a value'],
    [['serve', '--port', '--host', 'x'], '--port needs a value'],
    [['serve', '--port', 'eighty'], '--port must be a whole number from 0 to 65535'],
    [['serve', '--port', '65536'], '--port must be a whole number from 0 to 65535'],
    [['serve', '--port', '-1'], '--port must be a whole number from 0 to 65535'],
    [['serve', '--port', '8.5'], '--port must be a whole number from 0 to 65535'],
    [['serve', '--port='], '--port must be a whole number from 0 to 65535'],
    [['serve', '--port', '0x50'], '--port must be a whole number from 0 to 65535'],
    [['serve', '--host', ' '], '--host must not be empty'],
    [['serve', '--data-dir='], '--data-dir must not be empty'],
    [['serve', '--token', 'short'], '--token must be at least 8 characters'],
    [['serve', '--token', 'has space in it'], '--token must be at least 8 characters'],
    [['serve', '--log-level', 'loud'], '--log-level must be debug, info, warn or error'],
    [['serve', '--max-sessions-per-broker', '0'], '--max-sessions-per-broker must be a whole number of at least 1'],
    [['serve', '--max-sessions-per-broker', '2.5'], '--max-sessions-per-broker must be a whole number of at least 1'],
    [['serve', '--idle-timeout-ms', '-1'], '--idle-timeout-ms must be a non-negative number of milliseconds (got "-1")'],
    [['serve', '--reap-interval-ms', 'soon'], '--reap-interval-ms must be a non-negative number of milliseconds (got "soon")'],
    [['serve', '--permission-timeout-ms', 'Infinity'], '--permission-timeout-ms must be a non-negative number of milliseconds'],
    [['serve', '--idle-timeout-ms='], '--idle-timeout-ms must be a non-negative number of milliseconds'],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => parseArgs(argv, {})).toThrow(UsageError);
    expect(() => parseArgs(argv, {})).toThrow(message);
  });

  it('validates durations: whole milliseconds, 0 disables, too large is clamped to what timers accept', () => {
    expect(options('--idle-timeout-ms', '0', '--reap-interval-ms', '1500.9', '--permission-timeout-ms', '1e99').settings).toEqual({
      idleTimeoutMs: 0,
      reapIntervalMs: 1500,
      permissionTimeoutMs: MAX_TIMER_MS,
    });
  });
});

describe('switchboard: exit codes', () => {
  const stdout: string[] = [];
  const stderr: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    stdout.length = 0;
    stderr.length = 0;
  });
  function capture(): void {
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true));
  }

  it('prints the usage on stdout and exits 0 for --help', async () => {
    capture();
    expect(await main(['--help'])).toBe(0);
    expect(stdout.join('')).toBe(USAGE);
    expect(stderr).toEqual([]);
  });

  it('exits 2 with the reason and the usage on stderr for an invalid option', async () => {
    capture();
    expect(await main(['serve', '--idle-timeout-ms', 'never'])).toBe(2);
    expect(stderr.join('')).toBe(
      `switchboard: --idle-timeout-ms must be a non-negative number of milliseconds (got "never")\n\n${USAGE}`,
    );
    expect(stdout).toEqual([]);
  });

  it('exits 1 with a clear message when the window is not built', async () => {
    const empty = tempDir();
    vi.stubEnv('SWITCHBOARD_RENDERER_DIR', empty.path);
    try {
      capture();
      expect(await main(['serve', '--data-dir', empty.path])).toBe(1);
      expect(stderr.join('')).toContain('the window is not built');
    } finally {
      vi.unstubAllEnvs();
      empty.cleanup();
    }
  });

  it('as a real process, --qr prints the ready line first, then a QR code and the tunnel command with the port it got', async () => {
    const dir = tempDir();
    const p = startServe(['serve', '--port', '0', '--data-dir', dir.path, '--qr']);
    try {
      const page = await p.ready;
      await vi.waitFor(() => expect(p.stdout()).toContain('ssh -N -L'), { timeout: 10_000 });
      const out = p.stdout();
      expect(out.split('\n')[0]).toBe(`Switchboard ready: ${page.toString()}`);
      expect(out).toMatch(/[▀▄█]{3}/);
      expect(out).toContain(`ssh -N -L ${page.port}:127.0.0.1:${page.port} `);
      expect(p.stderr()).not.toContain('WARNING');
    } finally {
      p.child.kill('SIGTERM');
      await p.exited;
      dir.cleanup();
    }
  });

  it('as a real process: exits 2 for an unknown option and 0 for --help', async () => {
    const bad = await runCli(['serve', '--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('switchboard: unknown option --bogus');
    expect(bad.stderr).toContain('Usage: switchboard serve [options]');
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(USAGE);
  });
});
