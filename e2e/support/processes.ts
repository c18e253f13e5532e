import { readdirSync, readFileSync } from 'node:fs';

/** Pids of live processes whose command line contains every one of `parts` (Linux /proc). */
export function processesMatching(...parts: string[]): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state === 'Z') continue; // a zombie is already dead
      if (parts.every((p) => cmdline.includes(p))) pids.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return pids;
}

/** Demo agent processes started by the host on `dataDir`. */
export const demoAgents = (dataDir: string): number[] => processesMatching('demo-agent', dataDir);
