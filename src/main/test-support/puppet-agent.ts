/**
 * An agent process whose every byte is written by a test: it connects to the test's TCP port
 * (its one argument) and relays stdin to the socket and the socket to stdout. The test speaks
 * the agent's side of ACP itself, byte for byte, so it can send what no real agent library
 * would (invalid UTF-8, lines over the size limit, answers to requests never made).
 */
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { AgentDefinition } from '../brokers/agent-definition';

export const PUPPET_AGENT_ENTRY = fileURLToPath(import.meta.url);

/** An agent definition for a puppet agent that connects to `port`. */
export function puppetAgent(id: string, port: number): AgentDefinition {
  return { id, name: `Puppet agent ${id}`, command: process.execPath, args: ['--import', 'tsx', PUPPET_AGENT_ENTRY, String(port)], env: {} };
}

function run(port: number): void {
  const socket = connect(port, '127.0.0.1');
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
  // Either side gone ends the agent: the host sees an agent exit, the test a closed connection.
  socket.on('close', () => process.exit(0));
  socket.on('error', () => process.exit(1));
  process.stdin.on('end', () => socket.end());
  process.on('SIGTERM', () => process.exit(0));
}

if (process.argv[1] === PUPPET_AGENT_ENTRY) run(Number(process.argv[2]));
