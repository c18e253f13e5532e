import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOPS, hopsOf, readIoTrace } from '../bench/lib/first-text-path';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A trace folder: the host (pid 10), a demo agent (pid 11) and the watchdog (pid 12). */
function traces(host: string[], agent: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-io-trace-'));
  dirs.push(dir);
  writeFileSync(join(dir, '10.log'), ['1000.000 START bin/switchboard.mjs serve', ...host].join('\n'));
  writeFileSync(join(dir, '11.log'), ['1000.000 START out/main/demo-agent.js --data-dir x', ...agent].join('\n'));
  writeFileSync(join(dir, '12.log'), ['1000.000 START out/main/watchdog.js', '1001.000 W {"jsonrpc":"2.0","method":"session/prompt"}'].join('\n'));
  return dir;
}

describe('the first text, hop by hop', () => {
  const host = [
    '1099.000 R {"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk"}}}',
    '1102.000 R ¤masked frame',
    '1104.500 W {"type":"event","event":"session:updated"}',
    '1105.000 W {"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{}}',
    '1110.000 R {"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk"}}}',
    '1111.500 W {"type":"event","event":"session:event","payload":{"seq":5,"kind":"agent_message"}}',
  ];
  const agent = ['1106.000 R {"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{}}', '1109.000 W {"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk"}}}'];

  it('follows the prompt from the page through the host and the agent back to the page', () => {
    const lines = readIoTrace(traces(host, agent), 10);
    // The watchdog's lines are not the agent's; the host's read before the Enter is not this turn's.
    expect(lines.filter((l) => l.role === 'agent')).toHaveLength(2);
    const hops = hopsOf({ enter: 1100, sent: 1100.5, textHandled: 1120 }, lines);
    expect(hops).toEqual(Object.fromEntries(HOPS.map((h, i) => [h, [0.5, 1.5, 3, 1, 3, 1, 1.5, 8.5][i]])));
  });

  it('says which hop it could not find, and refuses clocks that disagree', () => {
    const lines = readIoTrace(traces(host, agent.slice(0, 1)), 10);
    expect(hopsOf({ enter: 1100, sent: 1100.5, textHandled: 1120 }, lines)).toBe("no agent's first text after the Enter");
    const all = readIoTrace(traces(host, agent), 10);
    expect(hopsOf({ enter: 1100, sent: 1100.5, textHandled: 1111 }, all)).toMatch(/negative .*clocks disagree/);
  });
});
