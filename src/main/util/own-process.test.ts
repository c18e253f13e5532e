import { describe, expect, it } from 'vitest';
import { helperEnv, ownProcess, ROLE_FLAG } from './own-process';

describe('ownProcess: how the app starts its own helpers', () => {
  it('runs the script with Node under Node', () => {
    expect(ownProcess('watchdog', ['/app/out/main/watchdog.js'], ['--host-pid', '7'], { execPath: '/usr/bin/node', argv: ['/usr/bin/node', 'cli.js'], versions: {} })).toEqual({
      command: '/usr/bin/node',
      args: ['/app/out/main/watchdog.js', '--host-pid', '7'],
    });
  });

  it('runs the packaged app\'s own binary in the role under Electron (no ELECTRON_RUN_AS_NODE)', () => {
    const packaged = { execPath: '/opt/Switchboard/switchboard', argv: ['/opt/Switchboard/switchboard'], versions: { electron: '45.5.0' } };
    expect(ownProcess('demo-agent', ['/x/demo-agent.js'], ['--data-dir', '/d'], packaged)).toEqual({
      command: '/opt/Switchboard/switchboard',
      args: [`${ROLE_FLAG}=demo-agent`, '--data-dir', '/d'],
    });
  });

  it('names the app folder first for Electron run from a folder (development)', () => {
    const dev = { execPath: '/n/electron', argv: ['/n/electron', '/src/switchboard'], versions: { electron: '45.5.0' }, defaultApp: true };
    expect(ownProcess('watchdog', ['x'], ['--host-pid', '1'], dev).args).toEqual(['/src/switchboard', `${ROLE_FLAG}=watchdog`, '--host-pid', '1']);
  });
});

describe('helperEnv: what a helper that opens no connection starts with', () => {
  it('is the environment without NODE_EXTRA_CA_CERTS (Node 20 parses that file as every process starts), the given one unchanged', () => {
    const env = { PATH: '/bin', HOME: '/h', NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', NODE_OPTIONS: '--x' };
    expect(helperEnv(env)).toEqual({ PATH: '/bin', HOME: '/h', NODE_OPTIONS: '--x' });
    expect(env.NODE_EXTRA_CA_CERTS).toBe('/etc/ssl/certs/ca-certificates.crt');
    expect(helperEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });
});
