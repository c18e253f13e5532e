import { describe, expect, it } from 'vitest';
import { phoneAddress, qrCode, reachNotes, type ReachFacts } from './reach';

const facts = (over: Partial<ReachFacts> = {}): ReachFacts => ({
  url: 'http://127.0.0.1:48123/?token=abcdefgh12345678',
  host: '127.0.0.1',
  port: 48123,
  user: 'ada',
  machine: 'workstation',
  lanAddresses: ['192.168.1.20'],
  ...over,
});

describe('reaching serve from another device', () => {
  it('on loopback, gives the SSH tunnel command with the real port and says the token travels encrypted then', () => {
    const notes = reachNotes(facts());
    expect(notes).toContain('ssh -N -L 48123:127.0.0.1:48123 ada@workstation');
    expect(notes).toContain('this machine only');
    expect(notes).toContain('encrypted');
    expect(notes).toMatch(/anyone who reads it can use your agents/);
  });

  it('bound beyond loopback, warns that plain HTTP shows the token to the network and still offers the tunnel', () => {
    const notes = reachNotes(facts({ host: '0.0.0.0', url: 'http://0.0.0.0:48123/?token=abcdefgh12345678' }));
    expect(notes).toContain('plain HTTP');
    expect(notes).toMatch(/anyone on the path can read the token/);
    expect(notes).toContain('ssh -N -L 48123:127.0.0.1:48123 ada@workstation');
  });

  it("puts this machine's network address in the code when bound to every interface (0.0.0.0 opens nothing on a phone)", () => {
    expect(phoneAddress(facts({ host: '0.0.0.0', url: 'http://0.0.0.0:48123/?token=abcdefgh12345678' }))).toBe('http://192.168.1.20:48123/?token=abcdefgh12345678');
    expect(phoneAddress(facts())).toBe('http://127.0.0.1:48123/?token=abcdefgh12345678');
    expect(phoneAddress(facts({ host: '192.168.1.20', url: 'http://192.168.1.20:48123/?token=x' }))).toBe('http://192.168.1.20:48123/?token=x');
  });

  it('draws the address as a QR code of block characters, a different code for a different token', async () => {
    const code = await qrCode(facts().url);
    expect(code).toMatch(/[▀▄█]/);
    expect(code.split('\n').length).toBeGreaterThan(10);
    expect(await qrCode('http://127.0.0.1:48123/?token=another-token-0001')).not.toBe(code);
  });
});
