import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { writeFileAtomicSync } from '../util/atomic-file';
import { z } from 'zod';
import type { Logger } from '../util/log';

/**
 * Seals secret values before they are written to disk. The host knows no Electron: the app
 * passes one built on `safeStorage` (the OS keychain) when it is available; `serve` and tests
 * use `plainBox`, whose protection is the file's 0600 mode alone.
 */
export interface SecretBox {
  /** Written beside each value, so a value sealed by another box is recognised. */
  readonly kind: string;
  seal(plain: string): string;
  open(sealed: string): string;
}

export const plainBox: SecretBox = { kind: 'plain', seal: (s) => s, open: (s) => s };

const SecretsFile = z.object({
  version: z.literal(1),
  agents: z.record(z.string(), z.record(z.string(), z.object({ box: z.string(), value: z.string() }))),
});
type SecretsFileT = z.output<typeof SecretsFile>;

/** Only the owner may read or write the secrets file. */
export const SECRETS_FILE_MODE = 0o600;

/**
 * Per-agent secret environment values in `<data dir>/secrets.json`: mode 0600, replaced
 * atomically (a temporary 0600 file renamed over it), each value sealed by the box. Values
 * leave this class only through `values()` (for the agent's spawn); logs get names at most.
 */
export class SecretStore {
  private data: SecretsFileT;

  constructor(
    private readonly file: string,
    private readonly box: SecretBox,
    private readonly log: Logger,
  ) {
    this.data = this.read();
  }

  /** Names of the secrets stored for an agent (readable or not). */
  names(agentId: string): string[] {
    return Object.keys(this.data.agents[agentId] ?? {}).sort();
  }

  has(agentId: string, name: string): boolean {
    return Object.hasOwn(this.data.agents[agentId] ?? {}, name);
  }

  /** The clear values for the agent's environment. A value this box cannot open is left out. */
  values(agentId: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, entry] of Object.entries(this.data.agents[agentId] ?? {})) {
      try {
        if (entry.box === this.box.kind) out[name] = this.box.open(entry.value);
        else if (entry.box === plainBox.kind) out[name] = entry.value;
        else this.log.warn('a secret was sealed by another key store; it is not passed to the agent', { agent: agentId, name, box: entry.box });
      } catch {
        this.log.warn('a secret could not be opened; it is not passed to the agent', { agent: agentId, name });
      }
    }
    return out;
  }

  /**
   * The names and clear values of every secret kept for anyone but `owner` (other agents, MCP
   * servers): what `owner`'s process must not inherit. A value this box cannot open is named only.
   */
  othersThan(owner: string): { names: string[]; values: string[] } {
    const names: string[] = [];
    const values: string[] = [];
    for (const other of Object.keys(this.data.agents)) {
      if (other === owner) continue;
      names.push(...this.names(other));
      values.push(...Object.values(this.values(other)));
    }
    return { names, values };
  }

  /** Sets, replaces (value) or removes (undefined) secrets of one agent in one write. */
  update(agentId: string, changes: Record<string, string | undefined>): void {
    const current = { ...(this.data.agents[agentId] ?? {}) };
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) delete current[name];
      else current[name] = { box: this.box.kind, value: this.box.seal(value) };
    }
    const agents = { ...this.data.agents };
    if (Object.keys(current).length) agents[agentId] = current;
    else delete agents[agentId];
    this.write({ version: 1, agents });
  }

  removeAgent(agentId: string): void {
    if (!this.data.agents[agentId]) return;
    const agents = { ...this.data.agents };
    delete agents[agentId];
    this.write({ version: 1, agents });
  }

  private read(): SecretsFileT {
    if (!existsSync(this.file)) return { version: 1, agents: {} };
    // A file someone loosened is tightened again before it is read.
    if (process.platform !== 'win32' && (statSync(this.file).mode & 0o077) !== 0) chmodSync(this.file, SECRETS_FILE_MODE);
    try {
      return SecretsFile.parse(JSON.parse(readFileSync(this.file, 'utf8')));
    } catch (err) {
      // Never its content: it holds secrets.
      this.log.error('secrets.json is unreadable; agents start without their stored secrets', { error: (err as Error).name });
      return { version: 1, agents: {} };
    }
  }

  private write(data: SecretsFileT): void {
    // Created 0600 from the start (not chmod after): no moment where others could read it.
    writeFileAtomicSync(this.file, `${JSON.stringify(data, null, 2)}\n`, SECRETS_FILE_MODE);
    this.data = data;
  }
}
