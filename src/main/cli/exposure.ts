/**
 * Whether `serve` is reachable only from this machine. The token is the only thing between a
 * network and agents that edit the person's files, so binding anywhere else must be loud.
 */

/** 127.0.0.0/8, ::1 and the name localhost: nothing outside this machine can connect. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h.replace(/^::ffff:/, ''));
  return !!v4 && v4.slice(1).every((n) => Number(n) <= 255);
}

/** The warning `serve` prints (stderr and its ready output) when bound beyond loopback; undefined on loopback. */
export function exposureWarning(host: string): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  const where = host === '0.0.0.0' || host === '::' || host === '[::]' ? 'every network interface' : host;
  return (
    `WARNING: listening on ${where}, not only on this machine (127.0.0.1). Anyone who can reach this ` +
    `address and learns the token can run agents that read and change your files. Prefer the default ` +
    `and an SSH tunnel (ssh -L) to reach it from elsewhere.`
  );
}
