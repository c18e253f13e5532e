/**
 * The test's side of a puppet agent (puppet-agent.ts): a TCP server the agent process connects
 * to, and per connection the agent's end of the ACP stream. It answers the host's requests
 * like a minimal agent (initialize, session/new, prompts end at once) and records every
 * message the host sends, so a test can count the answers to what it sent.
 */
import { createServer, type Server, type Socket } from 'node:net';
import * as acp from '@agentclientprotocol/sdk';
import { puppetAgent } from './puppet-agent';
import type { AgentDefinition } from '../brokers/agent-definition';

export interface HostMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

export class PuppetLink {
  /** Every message the host wrote, in order. */
  readonly messages: HostMessage[] = [];
  /** ACP session ids this agent handed out with `session/new`. */
  readonly sessions: string[] = [];
  readonly closed: Promise<void>;
  isClosed = false;
  private buffered = '';
  /** Answers by request id: a case checks them after every message, so no scan of all messages. */
  private readonly answers = new Map<string | number, HostMessage[]>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      this.buffered += chunk;
      let lf: number;
      while ((lf = this.buffered.indexOf('\n')) !== -1) {
        const line = this.buffered.slice(0, lf);
        this.buffered = this.buffered.slice(lf + 1);
        if (line.trim()) this.onMessage(JSON.parse(line) as HostMessage);
      }
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.isClosed = true;
        for (const l of this.listeners) l();
        resolve();
      }),
    );
  }

  /** Writes one line: a message (as JSON) or raw bytes, then LF. */
  send(message: object | Uint8Array): void {
    if (this.isClosed) return;
    const bytes = message instanceof Uint8Array ? Buffer.from(message) : Buffer.from(JSON.stringify(message));
    this.socket.write(Buffer.concat([bytes, Buffer.from('\n')]));
  }

  /** The host's answers (result or error) to requests this agent sent with `id`. */
  answersTo(id: string | number): HostMessage[] {
    return this.answers.get(id) ?? [];
  }

  /** Resolves once `check` holds, re-checked on each message from the host; rejects on close or after `ms`. */
  until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
      const listener = (): void => {
        if (check()) done();
        else if (this.isClosed) done(new Error(`the agent's connection closed before ${what}`));
      };
      const done = (err?: Error): void => {
        clearTimeout(timer);
        this.listeners.delete(listener);
        if (err) reject(err);
        else resolve();
      };
      this.listeners.add(listener);
    });
  }

  end(): void {
    this.socket.destroy();
  }

  private onMessage(m: HostMessage): void {
    this.messages.push(m);
    if (m.method === undefined && m.id !== undefined && m.id !== null) this.answers.set(m.id, [...this.answersTo(m.id), m]);
    if (m.method !== undefined && m.id !== undefined && m.id !== null) this.answer(m);
    for (const l of this.listeners) l();
  }

  /** A minimal agent's answers to the host's requests. */
  private answer(m: HostMessage): void {
    const reply = (result: unknown): void => this.send({ jsonrpc: '2.0', id: m.id, result });
    switch (m.method) {
      case acp.methods.agent.initialize:
        return reply({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: { sessionCapabilities: { close: {} } }, authMethods: [] });
      case acp.methods.agent.session.new: {
        const sessionId = `acp-${this.sessions.length + 1}`;
        this.sessions.push(sessionId);
        return reply({ sessionId });
      }
      case acp.methods.agent.session.prompt:
        return reply({ stopReason: 'end_turn' });
      case acp.methods.agent.session.close:
        return reply({});
      default:
        return this.send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
    }
  }
}

/** Listens for puppet agents; each agent process the host starts becomes a `PuppetLink`. */
export class PuppetServer {
  private readonly server: Server;
  private readonly links: PuppetLink[] = [];
  private readonly waiters: ((link: PuppetLink) => void)[] = [];

  private constructor() {
    this.server = createServer((socket) => {
      const link = new PuppetLink(socket);
      this.links.push(link);
      for (const w of this.waiters.splice(0)) w(link);
    });
  }

  static async start(): Promise<PuppetServer> {
    const s = new PuppetServer();
    await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve));
    return s;
  }

  agent(id: string): AgentDefinition {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    return puppetAgent(id, address.port);
  }

  /** The newest connection that is still open, or the next one to come. */
  link(): Promise<PuppetLink> {
    const open = this.links.filter((l) => !l.isClosed).at(-1);
    return open ? Promise.resolve(open) : new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    for (const l of this.links) l.end();
    this.server.close();
  }
}
