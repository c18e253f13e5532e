import { z } from 'zod';
import type { SettingsRepo } from '../store/settings.repo';

const Value = z.union([z.string(), z.boolean()]);

/** What a person last chose in sessions of one agent: the defaults for its next sessions. */
const Remembered = z.object({
  mode: z.string().optional(),
  model: z.string().optional(),
  /** Other config options, by their id. */
  options: z.record(z.string(), Value).optional(),
  /**
   * Modes that let the agent act without asking which the person picked themselves in this
   * agent. A remembered mode that skips permission prompts is applied only if it is listed
   * here: never because an agent switched itself to it, nor from a record older than the
   * classifier that marks it.
   */
  chosenSkips: z.array(z.string()).optional(),
});
export type Remembered = z.output<typeof Remembered>;

const KEY = 'agentChoices';
const All = z.record(z.string(), Remembered);

export type RememberedKind = { role: 'mode'; skips: boolean } | { role: 'model' } | { role: 'option'; configId: string };

/**
 * The person's choices per agent, in the host's settings table under one key (not a setting a
 * window edits: `storedSettings` leaves it out). Only explicit choices from a window are
 * remembered; what an agent changes by itself is not.
 */
export class AgentChoices {
  constructor(private readonly settings: SettingsRepo) {}

  of(agentId: string): Remembered | undefined {
    return this.all()[agentId];
  }

  remember(agentId: string, kind: RememberedKind, value: string | boolean): void {
    const all = this.all();
    const prev = all[agentId] ?? {};
    let next: Remembered;
    if (kind.role === 'option') next = { ...prev, options: { ...prev.options, [kind.configId]: value } };
    else if (typeof value !== 'string') return;
    else if (kind.role === 'model') next = { ...prev, model: value };
    else {
      const skips = new Set(prev.chosenSkips ?? []);
      if (kind.skips) skips.add(value);
      next = { ...prev, mode: value, ...(skips.size ? { chosenSkips: [...skips] } : {}) };
    }
    this.settings.set(KEY, { ...all, [agentId]: next });
  }

  private all(): Record<string, Remembered> {
    const parsed = All.safeParse(this.settings.get(KEY));
    return parsed.success ? parsed.data : {};
  }
}
