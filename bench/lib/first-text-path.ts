/**
 * Where the time from a prompt's Enter to the agent's first text goes, hop by hop across the
 * page, the host and the agent (`bench/profile.ts first-text-path`). The host's and the agent's
 * reads and writes come from bench/lib/io-trace.mjs, the page's from marks it keeps; all are
 * stamped on one wall clock (performance.timeOrigin + now), so they can be put side by side.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface IoLine {
  at: number;
  role: 'host' | 'agent';
  dir: 'R' | 'W';
  text: string;
}

/** The io-trace lines of the host (`hostPid`) and of the demo agents it started, in time order. */
export function readIoTrace(dir: string, hostPid: number): IoLine[] {
  const lines: IoLine[] = [];
  for (const file of readdirSync(dir)) {
    const pid = Number(file.replace(/\.log$/, ''));
    const body = readFileSync(join(dir, file), 'utf8');
    const role = pid === hostPid ? 'host' : /^\S+ START .*demo-agent/.test(body) ? 'agent' : undefined;
    if (!role) continue;
    for (const l of body.split('\n')) {
      const m = /^(\d+\.\d+) ([RW]) (.*)$/.exec(l);
      if (m) lines.push({ at: Number(m[1]), role, dir: m[2] as 'R' | 'W', text: m[3]! });
    }
  }
  return lines.sort((a, b) => a.at - b.at);
}

/** The page's own moments of one turn (wall clock, ms). */
export interface PageMarks {
  enter: number;
  sent: number;
  textHandled: number;
}

export const HOPS = [
  'page: Enter → prompt sent',
  'browser → host',
  'host: prompt read → written to the agent',
  'host → agent (pipe)',
  'agent: prompt read → first text written',
  'agent → host (pipe)',
  'host: text read → written to the window',
  'host → page handler (browser, and frames queued before it)',
] as const;

export type Hop = (typeof HOPS)[number];

/** The hops of one turn, or why they could not be found. */
export function hopsOf(marks: PageMarks, lines: readonly IoLine[]): Record<Hop, number> | string {
  let at = marks.sent;
  const next = (role: IoLine['role'], dir: IoLine['dir'], match: (text: string) => boolean, what: string): number => {
    const hit = lines.find((l) => l.at >= at && l.role === role && l.dir === dir && match(l.text));
    if (!hit) throw new Error(`no ${what} after the Enter`);
    at = hit.at;
    return hit.at;
  };
  try {
    // A window's frames to the host are masked: the first read that is not an agent's JSON-RPC.
    const hostRead = next('host', 'R', (t) => !t.startsWith('{"jsonrpc"'), "host's read of the prompt");
    const hostToAgent = next('host', 'W', (t) => t.includes('"session/prompt"'), "host's session/prompt");
    const agentRead = next('agent', 'R', (t) => t.includes('"session/prompt"'), "agent's read of session/prompt");
    const agentText = next('agent', 'W', (t) => t.includes('agent_message_chunk'), "agent's first text");
    const hostReadText = next('host', 'R', (t) => t.includes('agent_message_chunk'), "host's read of the text");
    const hostToPage = next('host', 'W', (t) => t.includes('"kind":"agent_message"'), "host's agent_message frame");
    const hops = [marks.sent - marks.enter, hostRead - marks.sent, hostToAgent - hostRead, agentRead - hostToAgent, agentText - agentRead, hostReadText - agentText, hostToPage - hostReadText, marks.textHandled - hostToPage];
    if (hops.some((h) => h < 0)) return `a hop came out negative (${hops.map((h) => h.toFixed(1)).join(', ')}): the clocks disagree`;
    return Object.fromEntries(HOPS.map((name, i) => [name, hops[i]!])) as Record<Hop, number>;
  } catch (err) {
    return (err as Error).message;
  }
}
