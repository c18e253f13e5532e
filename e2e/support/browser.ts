import { existsSync } from 'node:fs';

/**
 * Debian's Chromium where present; otherwise undefined, and Playwright uses its own build
 * (installed on first use by the global setup where the internet is reachable).
 */
export function chromiumExecutable(): string | undefined {
  if (process.env.SWITCHBOARD_CHROMIUM) return process.env.SWITCHBOARD_CHROMIUM;
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) if (existsSync(candidate)) return candidate;
  return undefined;
}
