/**
 * `serve --qr`: the page's address as a QR code for a phone, and how to reach the host from
 * another device without putting the token on a network in the clear.
 */
import { hostname, networkInterfaces, userInfo } from 'node:os';
import { isLoopbackHost } from './exposure';

export interface ReachFacts {
  /** The address `serve` printed, token included. */
  url: string;
  /** What it listens on (`--host`). */
  host: string;
  port: number;
  /** Who and where to name in an SSH command. */
  user: string;
  machine: string;
  /** This machine's own non-loopback IPv4 addresses (for a wildcard bind). */
  lanAddresses: readonly string[];
}

const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

/** The facts of this machine, for `reachNotes`. */
export function localFacts(url: string, host: string, port: number): ReachFacts {
  const lanAddresses = Object.values(networkInterfaces())
    .flat()
    .filter((i) => i !== undefined && i.family === 'IPv4' && !i.internal)
    .map((i) => i!.address);
  let user = 'you';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (a container): the command still reads right with a placeholder.
  }
  return { url, host, port, user, machine: hostname(), lanAddresses };
}

/**
 * The address a phone should open. Bound to every interface, `serve` printed 0.0.0.0, which no
 * other device can open: the first address of this machine on the network stands in.
 */
export function phoneAddress(f: ReachFacts): string {
  if (!WILDCARD.has(f.host) || f.lanAddresses.length === 0) return f.url;
  const u = new URL(f.url);
  u.hostname = f.lanAddresses[0]!;
  return u.toString();
}

/** What `--qr` prints under the code: how the address can be reached, and why the token must not travel in the clear. */
export function reachNotes(f: ReachFacts): string {
  const tunnel = `ssh -N -L ${f.port}:127.0.0.1:${f.port} ${f.user}@${f.machine}`;
  const lines = ['The code holds the address with its access token: anyone who reads it can use your agents. Show it only to your own device.'];
  if (isLoopbackHost(f.host)) {
    lines.push(
      `Switchboard listens on this machine only (${f.host}:${f.port}). To open it from a phone or another computer, forward the port over SSH from that device, then scan the code or open the address there:`,
      `  ${tunnel}`,
      '(On a phone, an SSH app with port forwarding does the same, e.g. Termux: pkg install openssh.) The traffic, token included, then travels encrypted.',
    );
  } else {
    lines.push(
      `Switchboard listens beyond this machine (${f.host}:${f.port}) over plain HTTP: on a network you do not trust, anyone on the path can read the token and take over your agents. Prefer the default (127.0.0.1) and an SSH tunnel from the other device:`,
      `  ${tunnel}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The address as a QR code drawn with block characters, for a terminal. */
export async function qrCode(address: string): Promise<string> {
  // Only `--qr` draws one, after the ready line: the module is not read on a plain start.
  const { default: QRCode } = await import('qrcode');
  return QRCode.toString(address, { type: 'terminal', small: true });
}
